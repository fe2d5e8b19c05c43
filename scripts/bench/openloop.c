/*
 * openloop: an open-loop HTTP/1.1 load generator for scripts/bench.sh (wrk2 is not in Debian; httperf and tsung,
 * which are, neither replay per-request headers and bodies nor report percentiles timed from the schedule).
 *
 * Requests are due on a fixed schedule, one every 1/rate seconds (constant rate, not Poisson: two runs offer the
 * same load), whatever the server does. Each is timed from when it was DUE to when its response was read in
 * full: a request that waited in this client for a free connection (all busy with a slow server) counts that
 * wait, so a stall shows in the percentiles instead of slowing the client down (coordinated omission corrected).
 * Up to -c keep-alive connections; a due request goes to a free one, else waits, in order.
 *
 *   openloop -a 127.0.0.1:PORT -r RATE -d SECONDS -c CONNECTIONS -f LINES [-t TOKENS] [-n BASE] [-T TIMELINE]
 *
 * LINES is the mixed scenario's file (scripts/bench/workload.py): METHOD <TAB> PATH <TAB> USER [<TAB> BODY],
 * USER 0 anonymous or the line of TOKENS whose bearer token signs the request in, BODY JSON whose "%n" becomes a
 * request counter (started at BASE, so bodies differ from an earlier run's). Lines are walked in order.
 *
 * Prints one line of key=value: offered and achieved rate (responses per second over the schedule), the
 * requests due, p50/p95/p99/max in ms, non-2xx answers, errors (connection failures or broken answers) and
 * requests never sent or never answered within 10 s of the schedule's end (timed to that moment), and its own
 * CPU time in % of one core. On stderr, the same per route (method and path, ids as {id}): where a tail comes from.
 *
 * With -T, TIMELINE gets one line a second of the schedule: the requests due in it, their worst time and how many
 * took over 50 ms, so a stall shows when it came and how long it lasted.
 *
 * One thread, epoll, woken at each due time (epoll_pwait2's nanosecond timeout). Built by scripts/bench.sh.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define IN_SIZE (64 * 1024)
#define DRAIN_NS (10LL * 1000000000LL)

enum body_state { HEAD, LENGTH, CHUNK_SIZE, CHUNK_DATA, CHUNK_END, TRAILER, DONE };

struct conn {
    int fd;
    int connecting;
    int busy;          /* a request written (or being written) whose answer is not read in full */
    int64_t due;       /* when the request in flight was due */
    int route;
    char *out;         /* the request being written */
    size_t out_len, out_off;
    char in[IN_SIZE];
    size_t in_start, in_len;
    enum body_state state;
    long long remaining;
    int status;
    int closing;       /* the answer said Connection: close */
};

static struct sockaddr_in address;
static char host[64];
static char **lines;
static size_t line_count;
static char **tokens;
static size_t token_count;
static struct conn *conns;
static int conn_count;
static int epfd;
static double *latencies;
static unsigned char *latency_routes; /* each latency's route (below) */
static size_t latency_count, latency_cap;
/* Routes: a line's method and path without its query, every segment with two digits or more read as {id}. */
#define MAX_ROUTES 64
static char *routes[MAX_ROUTES];
static int route_count;
static unsigned char *line_routes;
static long long route_non2xx[MAX_ROUTES];
static long long non2xx, errors, answered_total;
static long long counter;
static int64_t last_answer;

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void die(const char *what) {
    perror(what);
    exit(2);
}

static char **read_lines(const char *path, size_t *count) {
    FILE *f = fopen(path, "r");
    if (!f) die(path);
    size_t cap = 1024, n = 0;
    char **out = malloc(cap * sizeof *out);
    char *line = NULL;
    size_t size = 0;
    ssize_t len;
    while ((len = getline(&line, &size, f)) > 0) {
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = 0;
        if (len == 0) continue;
        if (n == cap) out = realloc(out, (cap *= 2) * sizeof *out);
        out[n++] = strdup(line);
    }
    free(line);
    fclose(f);
    *count = n;
    return out;
}

/* The timeline (-T): per second of the schedule, from schedule_start. */
static int64_t schedule_start;
static long long timeline_len, *timeline_due, *timeline_slow;
static double *timeline_max;

static void record(int64_t due, int64_t at, int route) {
    if (timeline_len) {
        long long second = (due - schedule_start) / 1000000000LL;
        if (second >= 0 && second < timeline_len) {
            double ms = (double)(at - due) / 1e6;
            timeline_due[second]++;
            if (ms > 50) timeline_slow[second]++;
            if (ms > timeline_max[second]) timeline_max[second] = ms;
        }
    }
    if (latency_count == latency_cap) {
        latency_cap = latency_cap ? latency_cap * 2 : 65536;
        latencies = realloc(latencies, latency_cap * sizeof *latencies);
        latency_routes = realloc(latency_routes, latency_cap);
    }
    latency_routes[latency_count] = (unsigned char)route;
    latencies[latency_count++] = (double)(at - due) / 1e6;
}

static int route_of(const char *line) {
    char route[256];
    size_t n = 0;
    const char *p = line;
    while (*p && *p != '\t' && n < 16) route[n++] = *p++;
    route[n++] = ' ';
    if (*p == '\t') p++;
    while (*p && *p != '\t' && *p != '?' && n < sizeof route - 8) {
        const char *end = p + 1;
        while (*end && *end != '/' && *end != '\t' && *end != '?') end++;
        int digits = 0; /* ids have several ("/v1" one) */
        for (const char *q = p; q < end; q++) digits += (*q >= '0' && *q <= '9');
        if (digits >= 2) n += (size_t)snprintf(route + n, sizeof route - n, "/{id}");
        else {
            size_t len = (size_t)(end - p) < sizeof route - n - 1 ? (size_t)(end - p) : sizeof route - n - 1;
            memcpy(route + n, p, len);
            n += len;
        }
        p = end;
    }
    route[n] = 0;
    for (int i = 0; i < route_count; i++)
        if (strcmp(routes[i], route) == 0) return i;
    if (route_count == MAX_ROUTES) return MAX_ROUTES - 1;
    routes[route_count] = strdup(route);
    return route_count++;
}

static void watch(struct conn *c, uint32_t events, int op) {
    struct epoll_event ev = {.events = events, .data.ptr = c};
    if (epoll_ctl(epfd, op, c->fd, &ev) < 0) die("epoll_ctl");
}

static void open_conn(struct conn *c) {
    c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (c->fd < 0) die("socket");
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    c->connecting = 1;
    c->busy = 0;
    c->in_start = c->in_len = 0;
    c->state = HEAD;
    c->closing = 0;
    if (connect(c->fd, (struct sockaddr *)&address, sizeof address) < 0 && errno != EINPROGRESS) die("connect");
    watch(c, EPOLLOUT, EPOLL_CTL_ADD);
}

/* A broken connection: its request (if any) failed; a new connection takes its place. */
static void fail_conn(struct conn *c, int counts) {
    if (c->busy && counts) {
        errors++;
        record(c->due, now_ns(), c->route);
    }
    free(c->out);
    c->out = NULL;
    close(c->fd);
    open_conn(c);
}

/* The request of line `index` with the counter `n`. */
static char *build(size_t index, long long n, size_t *len) {
    const char *line = lines[index % line_count];
    const char *t1 = strchr(line, '\t');
    const char *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
    if (!t1 || !t2) {
        fprintf(stderr, "openloop: bad line %zu: %s\n", index % line_count, line);
        exit(2);
    }
    long user = strtol(t2 + 1, NULL, 10);
    const char *t3 = strchr(t2 + 1, '\t');
    const char *body = t3 ? t3 + 1 : "";
    char number[32];
    int number_len = snprintf(number, sizeof number, "%lld", n);
    size_t body_len = 0;
    for (const char *p = body; *p; p++) body_len += (p[0] == '%' && p[1] == 'n') ? (p++, (size_t)number_len) : 1;
    size_t cap = 512 + (size_t)(t2 - line) + body_len + (user > 0 && (size_t)user <= token_count ? strlen(tokens[user - 1]) : 0);
    char *out = malloc(cap);
    int k = snprintf(out, cap, "%.*s %.*s HTTP/1.1\r\nHost: %s\r\n", (int)(t1 - line), line, (int)(t2 - t1 - 1), t1 + 1, host);
    if (user > 0 && (size_t)user <= token_count) k += snprintf(out + k, cap - k, "Authorization: Bearer %s\r\n", tokens[user - 1]);
    if (body_len > 0) k += snprintf(out + k, cap - k, "Content-Type: application/json\r\nContent-Length: %zu\r\n", body_len);
    k += snprintf(out + k, cap - k, "\r\n");
    for (const char *p = body; *p; p++) {
        if (p[0] == '%' && p[1] == 'n') {
            memcpy(out + k, number, number_len);
            k += number_len;
            p++;
        } else {
            out[k++] = *p;
        }
    }
    *len = (size_t)k;
    return out;
}

static void flush_out(struct conn *c) {
    while (c->out_off < c->out_len) {
        ssize_t w = write(c->fd, c->out + c->out_off, c->out_len - c->out_off);
        if (w < 0) {
            if (errno == EAGAIN) {
                watch(c, EPOLLIN | EPOLLOUT, EPOLL_CTL_MOD);
                return;
            }
            fail_conn(c, 1);
            return;
        }
        c->out_off += (size_t)w;
    }
    free(c->out);
    c->out = NULL;
    watch(c, EPOLLIN, EPOLL_CTL_MOD);
}

static void send_request(struct conn *c, size_t index, int64_t due) {
    c->busy = 1;
    c->due = due;
    c->route = line_routes[index % line_count];
    c->state = HEAD;
    c->out = build(index, counter++, &c->out_len);
    c->out_off = 0;
    flush_out(c);
}

static int header_is(const char *line, size_t len, const char *name, const char **value) {
    size_t n = strlen(name);
    if (len <= n || strncasecmp(line, name, n) != 0 || line[n] != ':') return 0;
    const char *v = line + n + 1;
    while (*v == ' ' || *v == '\t') v++;
    *value = v;
    return 1;
}

/* Parses the status line and headers ending at `end`; sets the body's state. Returns 0 on a broken answer. */
static int parse_head(struct conn *c, const char *head, const char *end) {
    if (end - head < 12 || strncmp(head, "HTTP/1.", 7) != 0) return 0;
    c->status = atoi(head + 9);
    c->remaining = 0;
    int chunked = 0;
    long long length = -1;
    const char *line = strstr(head, "\r\n") + 2;
    while (line < end) {
        const char *eol = strstr(line, "\r\n");
        const char *value;
        size_t len = (size_t)(eol - line);
        if (header_is(line, len, "Content-Length", &value)) length = atoll(value);
        else if (header_is(line, len, "Transfer-Encoding", &value)) chunked = strncasecmp(value, "chunked", 7) == 0;
        else if (header_is(line, len, "Connection", &value)) c->closing = strncasecmp(value, "close", 5) == 0;
        line = eol + 2;
    }
    if (c->status == 204 || c->status == 304 || (c->status >= 100 && c->status < 200)) c->state = DONE;
    else if (chunked) c->state = CHUNK_SIZE;
    else if (length >= 0) {
        c->remaining = length;
        c->state = length > 0 ? LENGTH : DONE;
    } else return 0; /* read-until-close is not used by the server */
    return 1;
}

static void answered(struct conn *c) {
    int64_t at = now_ns();
    record(c->due, at, c->route);
    last_answer = at;
    answered_total++;
    if (c->status < 200 || c->status >= 300) {
        non2xx++;
        route_non2xx[c->route]++;
    }
    c->busy = 0;
    c->state = HEAD;
    if (c->closing) {
        close(c->fd);
        open_conn(c);
    }
}

/* Consumes what arrived; returns 0 when the answer is broken. */
static int consume(struct conn *c) {
    for (;;) {
        char *data = c->in + c->in_start;
        size_t avail = c->in_len - c->in_start;
        if (c->state == HEAD || c->state == CHUNK_SIZE || c->state == CHUNK_END || c->state == TRAILER) {
            const char *mark = c->state == HEAD ? "\r\n\r\n" : "\r\n";
            char *found = memmem(data, avail, mark, strlen(mark));
            if (!found) {
                if (avail == IN_SIZE) return 0;
                break;
            }
            size_t used = (size_t)(found - data) + strlen(mark);
            if (c->state == HEAD) {
                char saved = found[2];
                found[2] = 0; /* strstr stops here: the last header's CRLF stays */
                int ok = parse_head(c, data, found + 2);
                found[2] = saved;
                if (!ok) return 0;
            } else if (c->state == CHUNK_SIZE) {
                long long size = strtoll(data, NULL, 16);
                c->remaining = size;
                c->state = size > 0 ? CHUNK_DATA : TRAILER;
            } else if (c->state == CHUNK_END) {
                if (used != 2) return 0;
                c->state = CHUNK_SIZE;
            } else {
                if (used == 2) c->state = DONE;
            }
            c->in_start += used;
        } else if (c->state == LENGTH || c->state == CHUNK_DATA) {
            if (avail == 0) break;
            size_t take = avail < (size_t)c->remaining ? avail : (size_t)c->remaining;
            c->remaining -= (long long)take;
            c->in_start += take;
            if (c->remaining == 0) c->state = c->state == LENGTH ? DONE : CHUNK_END;
        }
        if (c->state == DONE) {
            if (!c->busy) return 0; /* an answer nobody asked for */
            answered(c);
            break; /* one request in flight per connection: nothing follows its answer */
        }
        if (c->in_start == c->in_len) break;
    }
    if (c->in_start == c->in_len) c->in_start = c->in_len = 0;
    else if (c->in_start > 0) {
        memmove(c->in, c->in + c->in_start, c->in_len - c->in_start);
        c->in_len -= c->in_start;
        c->in_start = 0;
    }
    return 1;
}

static void readable(struct conn *c) {
    while (!c->connecting) {
        if (c->in_len == IN_SIZE) {
            fail_conn(c, 1);
            return;
        }
        ssize_t r = read(c->fd, c->in + c->in_len, IN_SIZE - c->in_len);
        if (r < 0) {
            if (errno == EAGAIN) return;
            fail_conn(c, 1);
            return;
        }
        if (r == 0) {
            fail_conn(c, c->busy);
            return;
        }
        c->in_len += (size_t)r;
        if (!consume(c)) {
            fail_conn(c, 1);
            return;
        }
    }
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double percentile(double p) {
    if (latency_count == 0) return 0;
    size_t i = (size_t)(p / 100.0 * (double)latency_count);
    if (i >= latency_count) i = latency_count - 1;
    return latencies[i];
}

int main(int argc, char **argv) {
    const char *addr = NULL, *lines_path = NULL, *tokens_path = NULL, *timeline_path = NULL;
    double rate = 0, seconds = 0;
    int opt;
    conn_count = 64;
    while ((opt = getopt(argc, argv, "a:r:d:c:f:t:n:T:")) != -1) {
        switch (opt) {
        case 'a': addr = optarg; break;
        case 'r': rate = atof(optarg); break;
        case 'd': seconds = atof(optarg); break;
        case 'c': conn_count = atoi(optarg); break;
        case 'f': lines_path = optarg; break;
        case 't': tokens_path = optarg; break;
        case 'n': counter = atoll(optarg); break;
        case 'T': timeline_path = optarg; break;
        default: goto usage;
        }
    }
    if (!addr || !lines_path || rate <= 0 || seconds <= 0 || conn_count <= 0) {
    usage:
        fprintf(stderr, "usage: openloop -a HOST:PORT -r RATE -d SECONDS -c CONNECTIONS -f LINES [-t TOKENS] [-n BASE] [-T TIMELINE]\n");
        return 2;
    }
    const char *colon = strrchr(addr, ':');
    if (!colon || (size_t)(colon - addr) >= sizeof host) goto usage;
    snprintf(host, sizeof host, "%s", addr);
    char ip[64];
    snprintf(ip, sizeof ip, "%.*s", (int)(colon - addr), addr);
    address.sin_family = AF_INET;
    address.sin_port = htons((uint16_t)atoi(colon + 1));
    if (inet_pton(AF_INET, ip, &address.sin_addr) != 1) goto usage;
    signal(SIGPIPE, SIG_IGN);
    lines = read_lines(lines_path, &line_count);
    if (line_count == 0) die("no lines");
    if (tokens_path) tokens = read_lines(tokens_path, &token_count);
    line_routes = malloc(line_count);
    for (size_t i = 0; i < line_count; i++) line_routes[i] = (unsigned char)route_of(lines[i]);

    epfd = epoll_create1(EPOLL_CLOEXEC);
    if (epfd < 0) die("epoll_create1");
    conns = calloc((size_t)conn_count, sizeof *conns);
    for (int i = 0; i < conn_count; i++) open_conn(&conns[i]);

    const int64_t interval = (int64_t)(1e9 / rate);
    const long long total = (long long)(rate * seconds);
    long long scheduled = 0; /* requests due so far: request i is due at start + i * interval */
    long long sent = 0;      /* requests handed to a connection, in order */
    struct epoll_event events[256];
    int64_t start = now_ns() + 200000000LL; /* the connections open first */
    int64_t stop = start + (int64_t)(seconds * 1e9);
    schedule_start = start;
    if (timeline_path) {
        timeline_len = (long long)seconds + 1;
        timeline_due = calloc((size_t)timeline_len, sizeof *timeline_due);
        timeline_slow = calloc((size_t)timeline_len, sizeof *timeline_slow);
        timeline_max = calloc((size_t)timeline_len, sizeof *timeline_max);
    }
    int64_t give_up = stop + DRAIN_NS;
    int free_hint = 0;
    for (;;) {
        int64_t now = now_ns();
        if (now >= start) {
            while (scheduled < total && start + scheduled * interval <= now) scheduled++;
        }
        /* Hand due requests to free connections, oldest first. */
        while (sent < scheduled) {
            struct conn *c = NULL;
            for (int k = 0; k < conn_count; k++) {
                struct conn *candidate = &conns[(free_hint + k) % conn_count];
                if (!candidate->busy && !candidate->connecting) {
                    c = candidate;
                    free_hint = (free_hint + k + 1) % conn_count;
                    break;
                }
            }
            if (!c) break;
            send_request(c, (size_t)sent, start + sent * interval);
            sent++;
        }
        int in_flight = 0;
        for (int k = 0; k < conn_count; k++) in_flight += conns[k].busy;
        if (scheduled == total && sent == total && in_flight == 0) break;
        if (now >= give_up) break;
        int64_t wake = scheduled < total ? start + scheduled * interval : give_up;
        if (wake < now) wake = now;
        struct timespec timeout = {.tv_sec = (wake - now) / 1000000000LL, .tv_nsec = (wake - now) % 1000000000LL};
        int n = epoll_pwait2(epfd, events, 256, &timeout, NULL);
        if (n < 0) {
            if (errno == EINTR) continue;
            die("epoll_pwait2");
        }
        for (int i = 0; i < n; i++) {
            struct conn *c = events[i].data.ptr;
            if (c->connecting) {
                int err = 0;
                socklen_t len = sizeof err;
                getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len);
                if (err) {
                    errors++;
                    close(c->fd);
                    usleep(10000); /* a refused connection: not a busy loop while the server is away */
                    open_conn(c);
                    continue;
                }
                c->connecting = 0;
                watch(c, EPOLLIN, EPOLL_CTL_MOD);
                continue;
            }
            if (events[i].events & (EPOLLERR | EPOLLHUP)) {
                fail_conn(c, 1);
                continue;
            }
            if ((events[i].events & EPOLLOUT) && c->out) flush_out(c);
            if (events[i].events & EPOLLIN) readable(c);
        }
    }
    /* What is left was never sent or never answered: timed to the moment this run gave up on it. */
    int64_t end = now_ns();
    long long unanswered = 0;
    for (long long i = sent; i < total; i++, unanswered++)
        record(start + i * interval, end, line_routes[(size_t)i % line_count]);
    for (int k = 0; k < conn_count; k++) {
        if (conns[k].busy) {
            record(conns[k].due, end, conns[k].route);
            unanswered++;
        }
    }
    /* Per route, to stderr: where the tail comes from. */
    double *one = malloc((latency_count + 1) * sizeof *one);
    fprintf(stderr, "route\trequests\tp50_ms\tp99_ms\tmax_ms\tnon2xx\n");
    for (int r = 0; r < route_count; r++) {
        size_t n = 0;
        for (size_t i = 0; i < latency_count; i++)
            if (latency_routes[i] == r) one[n++] = latencies[i];
        if (n == 0) continue;
        qsort(one, n, sizeof *one, compare);
        size_t p99 = (size_t)(0.99 * (double)n);
        fprintf(stderr, "%s\t%zu\t%.2f\t%.2f\t%.2f\t%lld\n", routes[r], n, one[n / 2], one[p99 < n ? p99 : n - 1],
                one[n - 1], route_non2xx[r]);
    }
    free(one);
    if (timeline_path) {
        FILE *t = fopen(timeline_path, "w");
        if (!t) die("timeline");
        fprintf(t, "second\tdue\tmax_ms\tover_50ms\n");
        for (long long i = 0; i < timeline_len; i++)
            fprintf(t, "%lld\t%lld\t%.1f\t%lld\n", i, timeline_due[i], timeline_max[i], timeline_slow[i]);
        fclose(t);
    }
    qsort(latencies, latency_count, sizeof *latencies, compare);
    double window = (double)((last_answer > stop ? last_answer : stop) - start) / 1e9;
    /* Its own cost: CPU seconds (user + system) per second of the schedule, in % of one core. */
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    double cpu = (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec / 1e6 + (double)usage.ru_stime.tv_sec
                 + (double)usage.ru_stime.tv_usec / 1e6;
    printf("offered=%.1f achieved=%.1f requests=%lld p50=%.2f p95=%.2f p99=%.2f max=%.2f non2xx=%lld errors=%lld "
           "unanswered=%lld cpu_pct=%.1f\n",
           rate, (double)answered_total / window, total, percentile(50), percentile(95), percentile(99),
           latency_count ? latencies[latency_count - 1] : 0.0, non2xx, errors, unanswered, 100 * cpu / window);
    return 0;
}
