#ifndef CONFAB_SPAWN_H
#define CONFAB_SPAWN_H

#include <sys/types.h>

/// Starts `path` as a child that lives and dies with the calling process (see confab_spawn.c).
///
/// - `argv`, `envp`: NULL-terminated, as for execve.
/// - `output_fd`: the child's stdout and stderr (stdin is /dev/null); -1 for /dev/null.
/// - `directory`: the child's working directory, or NULL for ours.
/// - `death_signal`: sent to the child when the thread that called this exits (and so when the
///   process dies, however it dies); 0 for none.
///
/// Returns the child's pid (also its process group id), or -1 with errno set when the child
/// could not be started (including exec failures, reported back from the child).
pid_t confab_spawn(const char *path, char *const argv[], char *const envp[], int output_fd,
                   const char *directory, int death_signal);

#endif
