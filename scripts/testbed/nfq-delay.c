/*
 * nfq-delay: a fixed one-way delay for kernels without sch_netem.
 *
 *   nfq-delay QUEUE DELAY_US
 *
 * Binds NFQUEUE number QUEUE (fed by an iptables rule such as
 *   iptables -t mangle -A POSTROUTING -o eth0 -j NFQUEUE --queue-num 0 --queue-bypass)
 * and accepts each packet DELAY_US microseconds after it was queued, in
 * arrival order: a pipe of constant delay, not a rate limit. Only packet
 * metadata is copied to user space; GSO packets stay whole; one batch
 * verdict releases every packet that is due. When the queue is full the
 * kernel lets packets through (fail-open) rather than dropping them.
 *
 * Speaks raw nfnetlink, so it needs only the kernel headers. Ends on
 * SIGTERM/SIGINT and then prints how many packets it delayed and how
 * late past their due time it let them go (its own overshoot: timer
 * slack and scheduling, which grow on a busy machine); with
 * --queue-bypass in the rule, traffic flows undelayed once it is gone.
 * Part of gomb's testbed (scripts/testbed.sh).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nfnetlink_queue.h>
#include <linux/netlink.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define HELD 65536 /* packets in flight; above the kernel queue length */

static int sock;
static uint16_t queue;
static volatile sig_atomic_t stop;

static struct {
	uint64_t due; /* CLOCK_MONOTONIC ns */
	uint32_t id;
} held[HELD];
static unsigned head, tail; /* held[head..tail) wait, in id order */

/* Overshoot: how late past its due time each packet was let go, µs, in
 * powers of two (late[k]: below 2^k µs), with the largest and the sum. */
#define LATE_BUCKETS 32
static uint64_t late[LATE_BUCKETS], late_n, late_max, late_sum;

static void note_late(uint64_t ns)
{
	uint64_t us = ns / 1000;
	int k = 0;
	while (k < LATE_BUCKETS - 1 && us >= (1ull << k))
		k++;
	late[k]++;
	late_n++;
	late_sum += us;
	if (us > late_max)
		late_max = us;
}

/* late_quantile: the bucket bound (µs) below which a share q of the
 * packets were let go. */
static uint64_t late_quantile(double q)
{
	uint64_t seen = 0;
	for (int k = 0; k < LATE_BUCKETS; k++) {
		seen += late[k];
		if (seen >= q * late_n)
			return 1ull << k;
	}
	return late_max;
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static void die(const char *what)
{
	fprintf(stderr, "nfq-delay: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* msg starts a queue-subsystem message of the given type in buf. */
static struct nlmsghdr *msg(char *buf, int type, int flags)
{
	struct nlmsghdr *n = (struct nlmsghdr *)buf;
	memset(buf, 0, NLMSG_SPACE(sizeof(struct nfgenmsg)));
	n->nlmsg_len = NLMSG_LENGTH(sizeof(struct nfgenmsg));
	n->nlmsg_type = (NFNL_SUBSYS_QUEUE << 8) | type;
	n->nlmsg_flags = NLM_F_REQUEST | flags;
	struct nfgenmsg *g = NLMSG_DATA(n);
	g->nfgen_family = AF_UNSPEC;
	g->version = NFNETLINK_V0;
	g->res_id = htons(queue);
	return n;
}

/* attr appends one attribute to n. */
static void attr(struct nlmsghdr *n, int type, const void *data, int len)
{
	struct nlattr *a = (struct nlattr *)((char *)n + NLMSG_ALIGN(n->nlmsg_len));
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	memcpy((char *)a + NLA_HDRLEN, data, len);
	n->nlmsg_len = NLMSG_ALIGN(n->nlmsg_len) + NLA_ALIGN(a->nla_len);
}

static void send_msg(struct nlmsghdr *n)
{
	if (send(sock, n, n->nlmsg_len, 0) < 0)
		die("send");
}

/* config sends one configuration message and waits for its ack. */
static void config(const char *what, struct nlmsghdr *n)
{
	char buf[8192];
	send_msg(n);
	for (;;) {
		ssize_t got = recv(sock, buf, sizeof buf, 0);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			die("recv ack");
		}
		for (struct nlmsghdr *r = (struct nlmsghdr *)buf; NLMSG_OK(r, got); r = NLMSG_NEXT(r, got)) {
			if (r->nlmsg_type != NLMSG_ERROR)
				continue;
			struct nlmsgerr *e = NLMSG_DATA(r);
			if (e->error) {
				errno = -e->error;
				die(what);
			}
			return;
		}
	}
}

/* release accepts every held packet that is due by t. */
static void release(uint64_t t)
{
	uint32_t last = 0;
	int any = 0;
	uint64_t now = now_ns();
	while (head != tail && held[head % HELD].due <= t) {
		if (now > held[head % HELD].due)
			note_late(now - held[head % HELD].due);
		else
			note_late(0);
		last = held[head % HELD].id;
		head++;
		any = 1;
	}
	if (!any)
		return;
	char buf[256];
	struct nlmsghdr *n = msg(buf, NFQNL_MSG_VERDICT_BATCH, 0);
	struct nfqnl_msg_verdict_hdr v = {htonl(NF_ACCEPT), htonl(last)};
	attr(n, NFQA_VERDICT_HDR, &v, sizeof v);
	send_msg(n);
}

/* receive takes every queued packet the socket holds, stamping its due time. */
static uint64_t receive(uint64_t delay, char *buf, size_t size)
{
	uint64_t n = 0;
	for (;;) {
		ssize_t got = recv(sock, buf, size, MSG_DONTWAIT);
		if (got < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return n;
			if (errno == ENOBUFS) /* the kernel dropped some; they fail open */
				continue;
			die("recv");
		}
		uint64_t due = now_ns() + delay;
		for (struct nlmsghdr *r = (struct nlmsghdr *)buf; NLMSG_OK(r, got); r = NLMSG_NEXT(r, got)) {
			if ((r->nlmsg_type & 0xff) != NFQNL_MSG_PACKET)
				continue;
			int alen = r->nlmsg_len - NLMSG_SPACE(sizeof(struct nfgenmsg));
			struct nlattr *a = (struct nlattr *)((char *)NLMSG_DATA(r) + NLMSG_ALIGN(sizeof(struct nfgenmsg)));
			for (; alen >= (int)sizeof *a && a->nla_len >= sizeof *a && a->nla_len <= alen;
			     alen -= NLA_ALIGN(a->nla_len), a = (struct nlattr *)((char *)a + NLA_ALIGN(a->nla_len))) {
				if ((a->nla_type & NLA_TYPE_MASK) != NFQA_PACKET_HDR)
					continue;
				struct nfqnl_msg_packet_hdr *ph = (void *)((char *)a + NLA_HDRLEN);
				if (tail - head == HELD) /* full: let the oldest go early */
					release(held[head % HELD].due);
				held[tail % HELD].due = due;
				held[tail % HELD].id = ntohl(ph->packet_id);
				tail++;
				n++;
			}
		}
	}
}

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	char *end1, *end2;
	long q = argc == 3 ? strtol(argv[1], &end1, 10) : -1;
	long d = argc == 3 ? strtol(argv[2], &end2, 10) : -1;
	if (argc != 3 || *end1 || *end2 || q < 0 || q > 65535 || d < 0 || d > 10000000) {
		fprintf(stderr, "usage: nfq-delay QUEUE DELAY_US  (QUEUE 0-65535, DELAY_US 0-10000000)\n");
		return 2;
	}
	queue = q;
	uint64_t delay = (uint64_t)d * 1000;

	sock = socket(AF_NETLINK, SOCK_RAW, NETLINK_NETFILTER);
	if (sock < 0)
		die("netlink socket");
	int rcv = 8 << 20;
	if (setsockopt(sock, SOL_SOCKET, SO_RCVBUFFORCE, &rcv, sizeof rcv) < 0)
		setsockopt(sock, SOL_SOCKET, SO_RCVBUF, &rcv, sizeof rcv);
	int one = 1; /* no ENOBUFS reports: fail-open covers an overflow */
	setsockopt(sock, SOL_NETLINK, NETLINK_NO_ENOBUFS, &one, sizeof one);
	struct sockaddr_nl sa = {.nl_family = AF_NETLINK};
	if (bind(sock, (struct sockaddr *)&sa, sizeof sa) < 0)
		die("bind netlink");

	char buf[256];
	struct nlmsghdr *n = msg(buf, NFQNL_MSG_CONFIG, NLM_F_ACK);
	struct nfqnl_msg_config_cmd cmd = {.command = NFQNL_CFG_CMD_BIND, .pf = htons(AF_INET)};
	attr(n, NFQA_CFG_CMD, &cmd, sizeof cmd);
	config("bind queue (is another program bound to it?)", n);

	n = msg(buf, NFQNL_MSG_CONFIG, NLM_F_ACK);
	struct nfqnl_msg_config_params params = {.copy_range = htonl(0), .copy_mode = NFQNL_COPY_META};
	attr(n, NFQA_CFG_PARAMS, &params, sizeof params);
	uint32_t maxlen = htonl(8192);
	attr(n, NFQA_CFG_QUEUE_MAXLEN, &maxlen, sizeof maxlen);
	uint32_t flags = htonl(NFQA_CFG_F_GSO | NFQA_CFG_F_FAIL_OPEN);
	attr(n, NFQA_CFG_MASK, &flags, sizeof flags);
	attr(n, NFQA_CFG_FLAGS, &flags, sizeof flags);
	config("configure queue", n);

	struct sigaction act = {.sa_handler = on_signal};
	sigaction(SIGTERM, &act, NULL);
	sigaction(SIGINT, &act, NULL);
	fprintf(stderr, "nfq-delay: queue %u, delay %ld us\n", queue, d);

	static char rbuf[1 << 16];
	uint64_t total = 0;
	struct pollfd pfd = {.fd = sock, .events = POLLIN};
	while (!stop) {
		struct timespec ts, *tsp = NULL;
		if (head != tail) {
			uint64_t t = now_ns(), due = held[head % HELD].due;
			uint64_t wait = due > t ? due - t : 0;
			ts.tv_sec = wait / 1000000000u;
			ts.tv_nsec = wait % 1000000000u;
			tsp = &ts;
		}
		if (ppoll(&pfd, 1, tsp, NULL) < 0 && errno != EINTR)
			die("ppoll");
		total += receive(delay, rbuf, sizeof rbuf);
		release(now_ns());
	}
	release(UINT64_MAX); /* let nothing wait for a program that is gone */
	fprintf(stderr, "nfq-delay: queue %u: %llu packets delayed %ld us; let go late by: mean %llu us, "
		"half under %llu us, 99%% under %llu us, at most %llu us\n",
		queue, (unsigned long long)total, d, (unsigned long long)(late_n ? late_sum / late_n : 0),
		(unsigned long long)late_quantile(0.5), (unsigned long long)late_quantile(0.99), (unsigned long long)late_max);
	return 0;
}
