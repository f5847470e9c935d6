// Starting confab-server's children (Janus, the HLS pipeline, the recording converters) so that
// they never outlive the server.
//
// Why not Foundation's Process: the child inherits the spawning thread's signal mask and the
// server's ignored dispositions (confab-server blocks and ignores SIGTERM/SIGINT to handle them
// through Dispatch), so a `gst-launch-1.0` started that way ignored SIGTERM and was found running
// with parent 1 long after its server had gone (issue 16). Here the child, between fork and exec:
//   - resets every signal to its default disposition and unblocks all of them;
//   - becomes the leader of its own process group, so the server can stop it and anything it
//     started with one kill(-pid, …), and a terminal's Ctrl-C reaches only the server;
//   - asks for a parent-death signal (prctl PR_SET_PDEATHSIG), which the kernel delivers even
//     when the server is killed with SIGKILL or crashes, and checks that the parent did not die
//     before that request took effect.
// Only async-signal-safe calls run in the child before execve (the server is multithreaded).
#define _GNU_SOURCE
#include "confab_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

// The kernel's sigaction, for the signals glibc keeps for itself (32 and 33, SIGCANCEL and
// SIGSETXID): its wrapper refuses them, yet an ignored one is inherited across exec like any
// other (seen here: signal 32 ignored in every child).
struct kernel_sigaction {
    void (*handler)(int);
    unsigned long flags;
    void (*restorer)(void);
    unsigned long long mask;
};

static void default_disposition(int number) {
    struct kernel_sigaction action = {0};
    action.handler = SIG_DFL;
    syscall(SYS_rt_sigaction, number, &action, NULL, sizeof action.mask);
}

static void fail_in_child(int report_fd) {
    int error = errno;
    // Best effort: the parent reads errno from the pipe; nothing else can be done here.
    ssize_t written = write(report_fd, &error, sizeof error);
    (void)written;
    _exit(127);
}

pid_t confab_spawn(const char *path, char *const argv[], char *const envp[], int output_fd,
                   const char *directory, int death_signal) {
    // Reports an exec failure's errno; closed by a successful exec (O_CLOEXEC).
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) return -1;
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        int error = errno;
        close(report[0]);
        close(report[1]);
        errno = error;
        return -1;
    }
    if (pid == 0) {
        struct sigaction default_action = {0};
        default_action.sa_handler = SIG_DFL;
        sigemptyset(&default_action.sa_mask);
        for (int number = 1; number < NSIG; number++) {
            // SIGKILL/SIGSTOP refuse, which is fine; glibc's own two need the kernel call.
            if (sigaction(number, &default_action, NULL) != 0) default_disposition(number);
        }
        sigset_t nothing;
        sigemptyset(&nothing);
        if (sigprocmask(SIG_SETMASK, &nothing, NULL) != 0) fail_in_child(report[1]);
        if (setpgid(0, 0) != 0) fail_in_child(report[1]);
        if (death_signal != 0) {
            if (prctl(PR_SET_PDEATHSIG, death_signal) != 0) fail_in_child(report[1]);
            // The parent may have died between fork and prctl: then nobody would signal us.
            if (getppid() != parent) _exit(0);
        }
        if (directory != NULL && chdir(directory) != 0) fail_in_child(report[1]);
        int null_fd = open("/dev/null", O_RDWR);
        if (null_fd < 0) fail_in_child(report[1]);
        int out = output_fd >= 0 ? output_fd : null_fd;
        if (dup2(null_fd, STDIN_FILENO) < 0 || dup2(out, STDOUT_FILENO) < 0 || dup2(out, STDERR_FILENO) < 0) {
            fail_in_child(report[1]);
        }
        // Nothing else of the server's (sockets, the database) leaks into the child; the
        // report pipe is O_CLOEXEC, so it stays open until exec and closes with it.
        unsigned keep = (unsigned)report[1];
        if (keep > STDERR_FILENO + 1) syscall(SYS_close_range, STDERR_FILENO + 1, keep - 1, 0);
        syscall(SYS_close_range, keep + 1, ~0U, 0);
        execve(path, argv, envp);
        fail_in_child(report[1]);
    }
    close(report[1]);
    int child_error = 0;
    ssize_t got;
    do {
        got = read(report[0], &child_error, sizeof child_error);
    } while (got < 0 && errno == EINTR);
    close(report[0]);
    if (got == (ssize_t)sizeof child_error) {
        // The child failed before or at exec and has exited: reap it, then report why.
        int status;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        errno = child_error;
        return -1;
    }
    return pid;
}
