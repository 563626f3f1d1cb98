#ifndef CSYSTEM_H
#define CSYSTEM_H

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/resource.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>

/// Routes SIGTERM and SIGINT to a write of 1 to `event_fd`, so an event loop can see them,
/// and ignores SIGPIPE (a peer that hangs up must never kill the server).
int csystem_install_shutdown_signals(int event_fd);

/// Ignores SIGPIPE only.
void csystem_ignore_sigpipe(void);

/// Accepts one connection as non-blocking and close-on-exec; returns the fd or -1 with errno.
int csystem_accept(int listen_fd);

/// Creates a non-blocking TCP listening socket on host:port with SO_REUSEADDR and, when
/// `reuse_port` is set, SO_REUSEPORT. Returns the fd or -1 with errno set.
int csystem_listen_tcp(const char *host, int port, int backlog, int reuse_port);

/// The port a bound socket listens on, or -1.
int csystem_local_port(int fd);

/// Sets TCP_NODELAY on a connected socket.
int csystem_set_nodelay(int fd);

/// Raises the soft open-file limit to the hard limit; returns the new soft limit.
long csystem_raise_fd_limit(void);

/// epoll event bits as plain integers (glibc declares them as an enum).
static const uint32_t csystem_epollin = EPOLLIN;
static const uint32_t csystem_epollout = EPOLLOUT;
static const uint32_t csystem_epollerr = EPOLLERR;
static const uint32_t csystem_epollhup = EPOLLHUP;
static const uint32_t csystem_epollrdhup = EPOLLRDHUP;

/// Creates an anonymous in-memory file holding `bytes`, for zero-copy `sendfile` of large
/// static files. Returns the fd or -1.
int csystem_memory_file(const char *name, const void *bytes, size_t length);

/// Sends up to `count` bytes of `file_fd` from `*offset` to `socket_fd`, advancing `*offset`.
ssize_t csystem_sendfile(int socket_fd, int file_fd, long *offset, size_t count);

/// writev that tells the kernel more data follows at once (MSG_MORE), so a response head is
/// sent in the same segments as the file body after it rather than as a packet of its own.
ssize_t csystem_writev_more(int fd, const struct iovec *vectors, int count);

/// Writes the peer's IP address of a connected socket into `buffer` (at least 64 bytes).
int csystem_peer_address(int fd, char *buffer, int length);

#endif
