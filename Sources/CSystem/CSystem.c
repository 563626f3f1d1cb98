#define _GNU_SOURCE
#include "CSystem.h"
#include <arpa/inet.h>
#include <pthread.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/sendfile.h>

static volatile int shutdown_event_fd = -1;

static void on_shutdown_signal(int signo) {
    (void)signo;
    int saved = errno;
    if (shutdown_event_fd >= 0) {
        uint64_t one = 1;
        ssize_t ignored = write(shutdown_event_fd, &one, sizeof one);
        (void)ignored;
    }
    errno = saved;
}

void csystem_ignore_sigpipe(void) {
    signal(SIGPIPE, SIG_IGN);
}

int csystem_install_shutdown_signals(int event_fd) {
    shutdown_event_fd = event_fd;
    csystem_ignore_sigpipe();
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_shutdown_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    if (sigaction(SIGTERM, &action, NULL) != 0) return -1;
    if (sigaction(SIGINT, &action, NULL) != 0) return -1;
    // A parent may have started us with these signals blocked (a thread pool's mask is
    // inherited through fork and exec); unblock them so a stop request always arrives.
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGTERM);
    sigaddset(&stop_signals, SIGINT);
    pthread_sigmask(SIG_UNBLOCK, &stop_signals, NULL);
    return 0;
}

int csystem_accept(int listen_fd) {
    return accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int csystem_listen_tcp(const char *host, int port, int backlog, int reuse_port) {
    struct sockaddr_in6 addr6;
    struct sockaddr_in addr4;
    struct sockaddr *addr;
    socklen_t length;
    int family;
    memset(&addr4, 0, sizeof addr4);
    memset(&addr6, 0, sizeof addr6);
    if (inet_pton(AF_INET, host, &addr4.sin_addr) == 1) {
        addr4.sin_family = AF_INET;
        addr4.sin_port = htons((uint16_t)port);
        addr = (struct sockaddr *)&addr4;
        length = sizeof addr4;
        family = AF_INET;
    } else if (inet_pton(AF_INET6, host, &addr6.sin6_addr) == 1) {
        addr6.sin6_family = AF_INET6;
        addr6.sin6_port = htons((uint16_t)port);
        addr = (struct sockaddr *)&addr6;
        length = sizeof addr6;
        family = AF_INET6;
    } else {
        errno = EINVAL;
        return -1;
    }
    int fd = socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    int on = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (reuse_port && setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, sizeof on) != 0) {
        int saved = errno; close(fd); errno = saved; return -1;
    }
    if (bind(fd, addr, length) != 0 || listen(fd, backlog) != 0) {
        int saved = errno; close(fd); errno = saved; return -1;
    }
    return fd;
}

int csystem_local_port(int fd) {
    struct sockaddr_storage storage;
    socklen_t length = sizeof storage;
    if (getsockname(fd, (struct sockaddr *)&storage, &length) != 0) return -1;
    if (storage.ss_family == AF_INET) return ntohs(((struct sockaddr_in *)&storage)->sin_port);
    if (storage.ss_family == AF_INET6) return ntohs(((struct sockaddr_in6 *)&storage)->sin6_port);
    return -1;
}

int csystem_set_nodelay(int fd) {
    int on = 1;
    return setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
}

long csystem_raise_fd_limit(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return -1;
    limit.rlim_cur = limit.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &limit) != 0) return -1;
    return (long)limit.rlim_cur;
}

int csystem_peer_address(int fd, char *buffer, int length) {
    struct sockaddr_storage storage;
    socklen_t size = sizeof storage;
    buffer[0] = 0;
    if (getpeername(fd, (struct sockaddr *)&storage, &size) != 0) return -1;
    if (storage.ss_family == AF_INET) {
        return inet_ntop(AF_INET, &((struct sockaddr_in *)&storage)->sin_addr, buffer, (socklen_t)length) ? 0 : -1;
    }
    if (storage.ss_family == AF_INET6) {
        return inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&storage)->sin6_addr, buffer, (socklen_t)length) ? 0 : -1;
    }
    return -1;
}

int csystem_memory_file(const char *name, const void *bytes, size_t length) {
    // An unlinked file in the temporary folder: sendfile from the page cache of a regular
    // file is what the kernel optimises best. memfd is the fallback.
    const char *folder = getenv("TMPDIR");
    int fd = open(folder && *folder ? folder : "/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd < 0) fd = memfd_create(name, MFD_CLOEXEC);
    if (fd < 0) return -1;
    size_t written = 0;
    while (written < length) {
        ssize_t n = write(fd, (const char *)bytes + written, length - written);
        if (n < 0) {
            if (errno == EINTR) continue;
            close(fd);
            return -1;
        }
        written += (size_t)n;
    }
    return fd;
}

ssize_t csystem_sendfile(int socket_fd, int file_fd, long *offset, size_t count) {
    off_t position = (off_t)*offset;
    ssize_t sent = sendfile(socket_fd, file_fd, &position, count);
    *offset = (long)position;
    return sent;
}

ssize_t csystem_writev_more(int fd, const struct iovec *vectors, int count) {
    struct msghdr message;
    memset(&message, 0, sizeof message);
    message.msg_iov = (struct iovec *)vectors;
    message.msg_iovlen = (size_t)count;
    return sendmsg(fd, &message, MSG_MORE | MSG_NOSIGNAL);
}
