#pragma once
#include <glib.h>
#include <glib-unix.h>
#include <glib-object.h>
#include <gio/gio.h>
#include <gio/gunixfdlist.h>
#include <stdint.h>
#include <libintl.h>
#include <locale.h>
// glibc's allocator settings (mallopt, malloc_trim): see ProcessHeap.
#include <malloc.h>

// libdispatch main-queue hooks (exported by the toolchain's libdispatch) used by the
// main-actor <-> GLib main loop bridge: see ARCHITECTURE.md.
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *msg);

static inline GType confab_type_object(void) { return G_TYPE_OBJECT; }
static inline GType confab_type_string(void) { return G_TYPE_STRING; }
static inline GType confab_type_boolean(void) { return G_TYPE_BOOLEAN; }
static inline GType confab_type_int(void) { return G_TYPE_INT; }
static inline GType confab_type_double(void) { return G_TYPE_DOUBLE; }
static inline GType confab_type_uint(void) { return G_TYPE_UINT; }
