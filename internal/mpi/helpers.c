//go:build cgo

// helpers.c: thin wrappers over MPI calls made outside timed regions.
#include "gomb.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static gomb_comm world_comm;

// How MPI was started: not (0), the world model (1: MPI_Init), a session
// (2: OSU's -I); ended once gomb_finalize ran. MPI_Initialized and
// MPI_Finalized speak of the world model only.
static int started, ended;
#if MPI_VERSION >= 4
static MPI_Session session = MPI_SESSION_NULL;
#endif
static MPI_Comm session_world = MPI_COMM_NULL;

// the job's processes: MPI_COMM_WORLD, or the session's communicator
static MPI_Comm world(void) { return started == 2 ? session_world : MPI_COMM_WORLD; }

// gomb_sessions reports whether this MPI library has MPI-4 sessions.
int gomb_sessions(void) { return MPI_VERSION >= 4; }

// gomb_init_session starts MPI as OSU's omb_mpi_init does with -I:
// MPI_Session_init, the group of the "mpi://WORLD" process set, a
// communicator made from it (tag "omb"), errors returned.
int gomb_init_session(void) {
#if MPI_VERSION >= 4
    MPI_Group g = MPI_GROUP_NULL;
    gomb_crash_guard();
    gomb_crash_in_init(1);
    int rc = MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session);
    gomb_crash_in_init(0);
    if (rc == MPI_SUCCESS) rc = MPI_Group_from_session_pset(session, "mpi://WORLD", &g);
    if (rc == MPI_SUCCESS) rc = MPI_Comm_create_from_group(g, "omb", MPI_INFO_NULL, MPI_ERRORS_RETURN, &session_world);
    if (g != MPI_GROUP_NULL) MPI_Group_free(&g);
    if (rc == MPI_SUCCESS) started = 2;
    world_comm.comm = world();
    return rc;
#else
    return MPI_ERR_OTHER; // refused before: gomb_sessions
#endif
}

int gomb_init(int thread_level, int *provided) {
    int levels[4] = {MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED,
                     MPI_THREAD_MULTIPLE};
    int rc;
    *provided = -1;
    int got = -1;
    gomb_crash_guard();
    gomb_crash_in_init(1);
    if (thread_level < 0) {
        rc = MPI_Init(NULL, NULL);
        if (rc == MPI_SUCCESS) MPI_Query_thread(&got);
    } else {
        rc = MPI_Init_thread(NULL, NULL, levels[thread_level & 3], &got);
    }
    gomb_crash_in_init(0);
    for (int i = 0; i < 4; i++)
        if (levels[i] == got) *provided = i;
    if (rc == MPI_SUCCESS) started = 1;
    world_comm.comm = MPI_COMM_WORLD;
    if (rc == MPI_SUCCESS) gomb_errors_return();
    return rc;
}

int gomb_initialized(void) {
    int flag = 0;
    MPI_Initialized(&flag);
    return flag || started;
}

int gomb_finalized(void) {
    int flag = 0;
    MPI_Finalized(&flag);
    return flag || ended;
}

int gomb_finalize(void) {
    int rc = MPI_SUCCESS;
#if MPI_VERSION >= 4
    if (started == 2) {
        if (session_world != MPI_COMM_NULL) rc = MPI_Comm_free(&session_world);
        int rf = MPI_Session_finalize(&session);
        ended = 1;
        return rc != MPI_SUCCESS ? rc : rf;
    }
#endif
    rc = MPI_Finalize();
    ended = 1;
    return rc;
}

void gomb_abort(int code) { MPI_Abort(world(), code); }

// gomb_errors_return makes MPI report errors as return codes, so Go can turn
// them into errors and main can decide what to do.
void gomb_errors_return(void) { MPI_Comm_set_errhandler(world(), MPI_ERRORS_RETURN); }

// MPICH installs a SIGUSR1 handler without SA_ONSTACK; a Go process that then
// receives SIGUSR1 crashes. Re-install the same handler with SA_ONSTACK.
void gomb_sigusr1_onstack(void) {
    struct sigaction sa;
    if (sigaction(SIGUSR1, NULL, &sa) != 0) return;
    if (sa.sa_handler == SIG_DFL || sa.sa_handler == SIG_IGN) return;
    if (sa.sa_flags & SA_ONSTACK) return;
    sa.sa_flags |= SA_ONSTACK;
    sigaction(SIGUSR1, &sa, NULL);
}

const char *gomb_error_string(int code, char *buf, int len) {
    int n = 0;
    if (len < MPI_MAX_ERROR_STRING) {
        char tmp[MPI_MAX_ERROR_STRING];
        MPI_Error_string(code, tmp, &n);
        snprintf(buf, (size_t)len, "%s", tmp);
    } else {
        MPI_Error_string(code, buf, &n);
        buf[n] = 0;
    }
    return buf;
}

int gomb_error_class(int code) {
    int cls = 0;
    MPI_Error_class(code, &cls);
    return cls;
}

int gomb_library_version(char *buf, int len) {
    int n = 0;
    char tmp[MPI_MAX_LIBRARY_VERSION_STRING];
    int rc = MPI_Get_library_version(tmp, &n);
    if (rc != MPI_SUCCESS) return rc;
    if (n >= len) n = len - 1;
    memcpy(buf, tmp, (size_t)n);
    buf[n] = 0;
    return MPI_SUCCESS;
}

int gomb_standard_version(int *major, int *minor) { return MPI_Get_version(major, minor); }

int gomb_processor_name(char *buf, int len) {
    int n = 0;
    char tmp[MPI_MAX_PROCESSOR_NAME];
    int rc = MPI_Get_processor_name(tmp, &n);
    if (rc != MPI_SUCCESS) return rc;
    if (n >= len) n = len - 1;
    memcpy(buf, tmp, (size_t)n);
    buf[n] = 0;
    return MPI_SUCCESS;
}

double gomb_wtime(void) { return MPI_Wtime(); }
double gomb_wtick(void) { return MPI_Wtick(); }

gomb_comm *gomb_world(void) {
    world_comm.comm = world();
    return &world_comm;
}

int gomb_comm_rank(gomb_comm *c) {
    int r = -1;
    if (c->comm != MPI_COMM_NULL) MPI_Comm_rank(c->comm, &r);
    return r;
}

int gomb_comm_size(gomb_comm *c) {
    int n = 0;
    if (c->comm != MPI_COMM_NULL) MPI_Comm_size(c->comm, &n);
    return n;
}

// gomb_comm_node_size is how many processes of c share this process's
// node (MPI_Comm_split_type, MPI_COMM_TYPE_SHARED), or -1.
int gomb_comm_node_size(gomb_comm *c) {
    MPI_Comm node;
    int n = -1;
    if (MPI_Comm_split_type(c->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) != MPI_SUCCESS) return -1;
    MPI_Comm_size(node, &n);
    MPI_Comm_free(&node);
    return n;
}

int gomb_comm_split(gomb_comm *c, int color, int key, gomb_comm **out) {
    gomb_comm *nc = calloc(1, sizeof(*nc));
    int rc;
    if (!nc) return MPI_ERR_NO_MEM;
    rc = MPI_Comm_split(c->comm, color < 0 ? MPI_UNDEFINED : color, key, &nc->comm);
    if (rc != MPI_SUCCESS) {
        free(nc);
        return rc;
    }
    if (nc->comm != MPI_COMM_NULL) MPI_Comm_set_errhandler(nc->comm, MPI_ERRORS_RETURN);
    nc->imb_groups[0] = nc->imb_groups[1] = MPI_GROUP_NULL;
    *out = nc;
    return MPI_SUCCESS;
}

int gomb_comm_is_null(gomb_comm *c) { return c == NULL || c->comm == MPI_COMM_NULL; }

void gomb_comm_free(gomb_comm *c) {
    if (!c || c == &world_comm) return;
    for (int i = 0; i < 2; i++)
        if (c->imb_groups[i] != MPI_GROUP_NULL) MPI_Group_free(&c->imb_groups[i]);
    if (c->comm != MPI_COMM_NULL) MPI_Comm_free(&c->comm);
    free(c);
}

int gomb_barrier(gomb_comm *c) { return MPI_Barrier(c->comm); }

int gomb_allreduce_max_double(gomb_comm *c, double *v) {
    double in = *v;
    return MPI_Allreduce(&in, v, 1, MPI_DOUBLE, MPI_MAX, c->comm);
}

int gomb_allreduce_max_int(gomb_comm *c, int *v) {
    int in = *v;
    return MPI_Allreduce(&in, v, 1, MPI_INT, MPI_MAX, c->comm);
}

int gomb_allreduce_min_int(gomb_comm *c, int *v) {
    int in = *v;
    return MPI_Allreduce(&in, v, 1, MPI_INT, MPI_MIN, c->comm);
}

int gomb_bcast_int(gomb_comm *c, int *v, int root) { return MPI_Bcast(v, 1, MPI_INT, root, c->comm); }

int gomb_bcast_bytes(gomb_comm *c, void *buf, int len, int root) {
    return MPI_Bcast(buf, len, MPI_BYTE, root, c->comm);
}

int gomb_send_bytes(gomb_comm *c, const void *buf, int len, int dest, int tag) {
    return MPI_Send(buf, len, MPI_BYTE, dest, tag, c->comm);
}

// gomb_iprobe_bytes says whether a message from any rank, of any tag,
// waits: its source, tag and length in bytes.
int gomb_iprobe_bytes(gomb_comm *c, int *flag, int *source, int *tag, int *len) {
    MPI_Status st;
    int rc = MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, c->comm, flag, &st);
    if (rc == MPI_SUCCESS && *flag) {
        *source = st.MPI_SOURCE;
        *tag = st.MPI_TAG;
        rc = MPI_Get_count(&st, MPI_BYTE, len);
    }
    return rc;
}

int gomb_recv_bytes(gomb_comm *c, void *buf, int len, int source, int tag) {
    return MPI_Recv(buf, len, MPI_BYTE, source, tag, c->comm, MPI_STATUS_IGNORE);
}

int gomb_gather_doubles(gomb_comm *c, const double *send, int n, double *recv, int root) {
    return MPI_Gather(send, n, MPI_DOUBLE, recv, n, MPI_DOUBLE, root, c->comm);
}

int gomb_gatherv_doubles(gomb_comm *c, const double *send, int n, double *recv,
                         const int *counts, const int *displs, int root) {
    return MPI_Gatherv(send, n, MPI_DOUBLE, recv, counts, displs, MPI_DOUBLE, root, c->comm);
}

int gomb_gather_ints(gomb_comm *c, const int *send, int n, int *recv, int root) {
    return MPI_Gather(send, n, MPI_INT, recv, n, MPI_INT, root, c->comm);
}

int gomb_gatherv_bytes(gomb_comm *c, const void *send, int n, void *recv, const int *counts,
                       const int *displs, int root) {
    return MPI_Gatherv(send, n, MPI_BYTE, recv, counts, displs, MPI_BYTE, root, c->comm);
}

// gomb_agree combines every rank's flag over c with MPI_Iallreduce and
// waits for it at most limit_s seconds (no limit when <= 0), sleeping
// between MPI_Test calls: a rank that met an MPI error asks the others how
// a step ended for them, and must not wait for good on ranks still stuck
// inside the step. When the limit passes first the request stays pending
// (its buffers are static) and the caller ends the job.
int gomb_agree(gomb_comm *c, int flag, double limit_s, int *lo, int *hi, int *done) {
    static int in[2], out[2];
    MPI_Request req;
    in[0] = flag;
    in[1] = -flag;
    *done = 0;
    int rc = MPI_Iallreduce(in, out, 2, MPI_INT, MPI_MAX, c->comm, &req);
    if (rc != MPI_SUCCESS) return rc;
    double end = MPI_Wtime() + limit_s;
    for (;;) {
        int fin = 0;
        if ((rc = MPI_Test(&req, &fin, MPI_STATUS_IGNORE)) != MPI_SUCCESS) return rc;
        if (fin) break;
        if (limit_s > 0 && MPI_Wtime() > end) return MPI_SUCCESS;
        struct timespec ts = {0, 100000}; // 0.1 ms: ranks two a core let the others run
        nanosleep(&ts, NULL);
    }
    *hi = out[0];
    *lo = -out[1];
    *done = 1;
    return MPI_SUCCESS;
}

// gomb_refused_call makes an MPI call that an MPI library checking its
// arguments refuses (MPI_Send of -1 elements, to MPI_PROC_NULL so that a
// library that checks nothing sends nothing): GOMB_FAULT=mpi-error's real
// MPI error, on c's error handler (MPI_ERRORS_RETURN).
int gomb_refused_call(gomb_comm *c) {
    char b = 0;
    return MPI_Send(&b, -1, MPI_BYTE, MPI_PROC_NULL, 0, c->comm);
}

// gomb_fork_sleepers forks n processes that sleep the given seconds and
// leave (osu_latency_mp's idle children). The child of a multi-threaded
// process may only make async-signal-safe calls: it puts the usual
// termination signals back to their defaults (the Go runtime's handlers
// are no use in it), sleeps and _exits. pids gets the children; returns
// how many were started.
int gomb_fork_sleepers(int n, int seconds, int *pids) {
    int k = 0;
    for (; k < n; k++) {
        pid_t p = fork();
        if (p < 0) break;
        if (p == 0) {
            struct sigaction dfl;
            memset(&dfl, 0, sizeof dfl);
            dfl.sa_handler = SIG_DFL;
            int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT, SIGUSR1, SIGURG};
            for (size_t s = 0; s < sizeof sigs / sizeof sigs[0]; s++) sigaction(sigs[s], &dfl, NULL);
            struct timespec ts = {seconds, 0};
            while (nanosleep(&ts, &ts) != 0) {
            }
            _exit(0);
        }
        pids[k] = (int)p;
    }
    return k;
}

// gomb_reap ends the given children that still sleep and waits for each.
void gomb_reap(const int *pids, int n) {
    for (int k = 0; k < n; k++) {
        if (waitpid(pids[k], NULL, WNOHANG) == 0) {
            kill(pids[k], SIGKILL);
            waitpid(pids[k], NULL, 0);
        }
    }
}

// gomb_cvar reads the MPI_T control variable called name (bound to no
// object) as text into buf: a string as it is, an integer in decimal, an
// enumeration by its item's name. Returns 1 when read, 0 when the library
// has no such variable or it cannot be read here. Call between
// MPI_T_init_thread and MPI_T_finalize (gomb_cvars_begin, _end).
int gomb_cvar(const char *name, char *buf, int len) {
    int idx, verb, bind, scope, cnt = 0, nl = 0, dl = 0;
    MPI_Datatype dt;
    MPI_T_enum en;
    MPI_T_cvar_handle h;
    buf[0] = 0;
    if (MPI_T_cvar_get_index(name, &idx) != MPI_SUCCESS) return 0;
    if (MPI_T_cvar_get_info(idx, NULL, &nl, &verb, &dt, &en, NULL, &dl, &bind, &scope) != MPI_SUCCESS ||
        bind != MPI_T_BIND_NO_OBJECT)
        return 0;
    if (MPI_T_cvar_handle_alloc(idx, NULL, &h, &cnt) != MPI_SUCCESS) return 0;
    int ok = 0;
    if (dt == MPI_CHAR) {
        char *tmp = calloc((size_t)cnt + 1, 1);
        if (tmp && MPI_T_cvar_read(h, tmp) == MPI_SUCCESS) {
            snprintf(buf, (size_t)len, "%s", tmp);
            ok = 1;
        }
        free(tmp);
    } else if (cnt == 1 && (dt == MPI_INT || dt == MPI_UNSIGNED)) {
        int v;
        if (MPI_T_cvar_read(h, &v) == MPI_SUCCESS) {
            ok = 1;
            snprintf(buf, (size_t)len, dt == MPI_INT ? "%d" : "%u", v);
            int items = 0, il = 0;
            char iname[256];
            if (en != MPI_T_ENUM_NULL && MPI_T_enum_get_info(en, &items, NULL, &il) == MPI_SUCCESS) {
                for (int k = 0; k < items; k++) {
                    int value, nlen = (int)sizeof iname;
                    if (MPI_T_enum_get_item(en, k, &value, iname, &nlen) == MPI_SUCCESS && value == v) {
                        snprintf(buf, (size_t)len, "%s", iname);
                        break;
                    }
                }
            }
        }
    }
    MPI_T_cvar_handle_free(&h);
    return ok;
}

// MPI_T is started for a read and, where the library allows it, finalised
// after it. Open MPI's MPI_T_init_thread registers the variables of every
// component of every framework, which loads them all (Open MPI 4.1: 64
// more shared objects, libfabric, libpsm2 and libibverbs among them, some
// 4 MB of private pages); only MPI_T_finalize closes them again, and a
// rank that keeps them runs its whole sweep with them. MPICH and the
// libraries built on it (MPICH_VERSION) keep MPI_T started until the
// process ends: MPICH 5.0.1's MPI_T_finalize frees the library's string
// control variables (MPIR_CVAR_BCAST_INTRANODE_TREE_TYPE becomes NULL)
// while MPI runs, and the next intra-node MPI_Bcast on a new communicator
// dies in strcmp (MPIDI_POSIX_mpi_release_gather_comm_init); the standard
// lets MPI_T stay initialised, and MPICH's loads nothing. MPI_T starts at
// the thread level MPI runs at: Open MPI's MPI_T_init_thread sets the
// library's thread level to the one it is given.
static int cvars_started;

int gomb_cvars_begin(void) {
    int level = MPI_THREAD_SINGLE, provided, rc = MPI_SUCCESS;
    if (cvars_started) return MPI_SUCCESS;
    MPI_Query_thread(&level);
    rc = MPI_T_init_thread(level, &provided);
    if (rc == MPI_SUCCESS) cvars_started = 1;
    return rc;
}

int gomb_cvars_end(void) {
#ifdef MPICH_VERSION
    return MPI_SUCCESS;
#else
    if (!cvars_started) return MPI_SUCCESS;
    cvars_started = 0;
    return MPI_T_finalize();
#endif
}
