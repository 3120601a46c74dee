//go:build cgo

// crash.c: a process that a library crashes (a segmentation fault inside
// MPI_Init, a bus error in a transport's progress thread) ends with one
// line of gomb's that says so (then the backtrace of a library's own
// handler, UCX's, where one was installed) and exit status 1, instead of
// the Go runtime's dump of every goroutine, which points at gomb's cgo
// call and buries the library's own messages. A fault in the executable's own code
// goes on to Go's handler as before: Go turns its nil checks' faults into
// panics, and a fault in gomb's C loops is gomb's to debug.
#define _GNU_SOURCE
#include <link.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

static const int crash_sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE};
#define NSIGS (int)(sizeof crash_sigs / sizeof crash_sigs[0])
static struct sigaction go_handlers[NSIGS];
// pre_go: the handlers the libraries installed as they were loaded, before
// Go's runtime started (UCX's, which prints the library's backtrace);
// this constructor runs after theirs and before Go's.
static struct sigaction pre_go[NSIGS];
__attribute__((constructor)) static void crash_before_go(void) {
    for (int k = 0; k < NSIGS; k++) sigaction(crash_sigs[k], NULL, &pre_go[k]);
}
static uintptr_t exe_lo, exe_hi; // the executable's code
static volatile int in_init;     // inside MPI_Init
static int guarded;

// exe_code: the executable's executable segments (the first object
// dl_iterate_phdr reports).
static int exe_code(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    (void)data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[i];
        if (p->p_type != PT_LOAD || !(p->p_flags & PF_X)) continue;
        uintptr_t lo = info->dlpi_addr + p->p_vaddr, hi = lo + p->p_memsz;
        if (exe_lo == 0 || lo < exe_lo) exe_lo = lo;
        if (hi > exe_hi) exe_hi = hi;
    }
    return 1;
}

// code_address is where the fault happened; ok 0 where this architecture's
// context is not read here (then Go's handler takes every fault).
static uintptr_t code_address(void *ctx, int *ok) {
    ucontext_t *uc = ctx;
    *ok = 1;
#if defined(__x86_64__)
    return (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    return (uintptr_t)uc->uc_mcontext.pc;
#elif defined(__powerpc64__)
    return (uintptr_t)uc->uc_mcontext.gp_regs[32];
#else
    (void)uc;
    *ok = 0;
    return 0;
#endif
}

// put appends s to the line at *n (async-signal-safe formatting).
static void put(char *line, size_t *n, size_t cap, const char *s) {
    while (*s && *n + 1 < cap) line[(*n)++] = *s++;
}

static void put_num(char *line, size_t *n, size_t cap, uintptr_t v, int hex) {
    char digits[32];
    int k = 0, base = hex ? 16 : 10;
    do {
        digits[k++] = "0123456789abcdef"[v % base];
        v /= base;
    } while (v && k < (int)sizeof digits);
    if (hex) put(line, n, cap, "0x");
    while (k > 0 && *n + 1 < cap) line[(*n)++] = digits[--k];
}

static const char *fault_name(int sig) {
    switch (sig) {
    case SIGSEGV: return "a segmentation fault";
    case SIGBUS: return "a bus error";
    case SIGILL: return "an illegal instruction";
    default: return "an arithmetic fault";
    }
}

// forward calls handler h, if it is one; else, where dfl, the signal's
// default action.
static void forward(struct sigaction *h, int sig, siginfo_t *info, void *ctx, int dfl) {
    if (h->sa_flags & SA_SIGINFO) {
        h->sa_sigaction(sig, info, ctx);
    } else if (h->sa_handler != SIG_DFL && h->sa_handler != SIG_IGN) {
        h->sa_handler(sig);
    } else if (dfl) {
        signal(sig, SIG_DFL);
        raise(sig);
    }
}

static void on_crash(int sig, siginfo_t *info, void *ctx) {
    int k = 0;
    while (k < NSIGS - 1 && crash_sigs[k] != sig) k++;
    int ok;
    uintptr_t pc = code_address(ctx, &ok);
    // a fault the kernel raised (not a signal sent by kill) outside the
    // executable's code: a library's
    if (ok && info->si_code > 0 && (pc < exe_lo || pc >= exe_hi)) {
        char line[512], host[128] = "";
        size_t n = 0;
        gethostname(host, sizeof host - 1);
        put(line, &n, sizeof line, "gomb: a library crashed this process ");
        put(line, &n, sizeof line, in_init ? "while MPI was starting" : "outside gomb's code");
        put(line, &n, sizeof line, " with ");
        put(line, &n, sizeof line, fault_name(sig));
        put(line, &n, sizeof line, " (code address ");
        put_num(line, &n, sizeof line, pc, 1);
        put(line, &n, sizeof line, ", data address ");
        put_num(line, &n, sizeof line, (uintptr_t)info->si_addr, 1);
        put(line, &n, sizeof line, ") on ");
        put(line, &n, sizeof line, host);
        put(line, &n, sizeof line, ", pid ");
        put_num(line, &n, sizeof line, (uintptr_t)getpid(), 0);
        put(line, &n, sizeof line, ": what the MPI library printed says why\n");
        ssize_t w = write(2, line, n);
        (void)w;
        forward(&pre_go[k], sig, info, ctx, 0); // its backtrace, where it has one
        _exit(1);
    }
    forward(&go_handlers[k], sig, info, ctx, 1);
}

// gomb_crash_guard installs the handler (once) in front of the ones in
// place (Go's), unless GOTRACEBACK is set: whoever sets it wants Go's own
// report of every fault.
void gomb_crash_guard(void) {
    if (guarded) return;
    guarded = 1;
    const char *tb = getenv("GOTRACEBACK");
    if (tb && *tb) return;
    dl_iterate_phdr(exe_code, NULL);
    if (exe_lo == 0) return;
    for (int k = 0; k < NSIGS; k++) {
        struct sigaction sa;
        if (sigaction(crash_sigs[k], NULL, &go_handlers[k]) != 0) continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_crash;
        sa.sa_mask = go_handlers[k].sa_mask;
        sa.sa_flags = go_handlers[k].sa_flags | SA_SIGINFO | SA_ONSTACK;
        sigaction(crash_sigs[k], &sa, NULL);
    }
}

void gomb_crash_in_init(int on) { in_init = on; }

// gomb_crash_inject faults inside the C library, as a defect of the MPI
// library's would (GOMB_FAULT=library-crash): strlen reads address 8.
void gomb_crash_inject(void) {
    size_t (*volatile f)(const char *) = strlen;
    f((const char *)8);
}
