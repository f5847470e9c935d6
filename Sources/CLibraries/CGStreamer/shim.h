#pragma once
#include <gst/gst.h>

static inline GstMessageType confab_message_type(GstMessage *m) { return GST_MESSAGE_TYPE(m); }
static inline const char *confab_message_source_name(GstMessage *m) { return GST_MESSAGE_SRC_NAME(m); }
static inline GstObject *confab_message_source(GstMessage *m) { return GST_MESSAGE_SRC(m); }
