#pragma once
#include <gst/gst.h>

static inline GstMessageType confab_message_type(GstMessage *m) { return GST_MESSAGE_TYPE(m); }
static inline const char *confab_message_source_name(GstMessage *m) { return GST_MESSAGE_SRC_NAME(m); }
static inline GstObject *confab_message_source(GstMessage *m) { return GST_MESSAGE_SRC(m); }

/* A pad probe that drops end-of-stream: an input that fails (a camera pulled out) must not end
   the streams downstream of it, which it shares with other inputs (webrtcbin's bundle). */
static inline GstPadProbeReturn confab_drop_end_of_stream(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void) pad; (void) data;
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    return (event != NULL && GST_EVENT_TYPE(event) == GST_EVENT_EOS) ? GST_PAD_PROBE_DROP : GST_PAD_PROBE_OK;
}
static inline void confab_keep_end_of_stream_inside(GstPad *pad) {
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, confab_drop_end_of_stream, NULL, NULL);
}

/* A pad probe that answers serialized queries (allocation, drain) itself: a queue holds such a
   query until everything before it has gone downstream, so a stalled branch behind it would
   stall the thread that asked. See MediaPipeline.answerSerializedQueries. */
static inline GstPadProbeReturn confab_answer_serialized_query(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void) pad; (void) data;
    GstQuery *query = GST_PAD_PROBE_INFO_QUERY(info);
    return (query != NULL && GST_QUERY_IS_SERIALIZED(query)) ? GST_PAD_PROBE_HANDLED : GST_PAD_PROBE_OK;
}
static inline void confab_answer_serialized_queries(GstPad *pad) {
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM, confab_answer_serialized_query, NULL, NULL);
}

/* A pad probe that answers caps queries (what may come, and may this come) with fixed caps
   instead of asking what lies behind (why: MediaPipeline.answerCapsQueries). The caps are owned
   by the probe and released with it. */
static inline GstPadProbeReturn confab_answer_caps_query(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void) pad;
    GstQuery *query = GST_PAD_PROBE_INFO_QUERY(info);
    GstCaps *accepted = (GstCaps *) data;
    if (query == NULL) return GST_PAD_PROBE_OK;
    if (GST_QUERY_TYPE(query) == GST_QUERY_CAPS) {
        GstCaps *filter = NULL;
        gst_query_parse_caps(query, &filter);
        GstCaps *result = filter != NULL ? gst_caps_intersect_full(filter, accepted, GST_CAPS_INTERSECT_FIRST) : gst_caps_ref(accepted);
        gst_query_set_caps_result(query, result);
        gst_caps_unref(result);
        return GST_PAD_PROBE_HANDLED;
    }
    if (GST_QUERY_TYPE(query) == GST_QUERY_ACCEPT_CAPS) {
        GstCaps *caps = NULL;
        gst_query_parse_accept_caps(query, &caps);
        gst_query_set_accept_caps_result(query, caps != NULL && gst_caps_is_subset(caps, accepted));
        return GST_PAD_PROBE_HANDLED;
    }
    return GST_PAD_PROBE_OK;
}
static inline gboolean confab_answer_caps_queries(GstPad *pad, const char *caps) {
    GstCaps *accepted = gst_caps_from_string(caps);
    if (accepted == NULL) return FALSE;
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM, confab_answer_caps_query, accepted, (GDestroyNotify) gst_caps_unref);
    return TRUE;
}

/* Counts the buffers through a pad (a camera's frames, whoever looks at them), and which of them
   was the last that needs no earlier one to decode (an encoder's keyframe; raw frames all are).
   The count is a reference-counted box held by the probe (released with it) and by the caller,
   so neither outlives the other's use of it. */
typedef struct { gint buffers; gint last_keyframe; } ConfabBufferCount;
static inline GstPadProbeReturn confab_count_buffer(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void) pad;
    ConfabBufferCount *count = (ConfabBufferCount *) data;
    gint number = g_atomic_int_add(&count->buffers, 1) + 1;
    /* A list (only counted with `lists_too`) says nothing of its buffers' kinds. */
    if ((GST_PAD_PROBE_INFO_TYPE(info) & GST_PAD_PROBE_TYPE_BUFFER) == 0) return GST_PAD_PROBE_OK;
    GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
    if (buffer != NULL && !GST_BUFFER_FLAG_IS_SET(buffer, GST_BUFFER_FLAG_DELTA_UNIT)) g_atomic_int_set(&count->last_keyframe, number);
    return GST_PAD_PROBE_OK;
}
/* `lists_too`: what a source pushes in lists as well as one by one (nicesrc: a connection's
   packets); a list counts once. */
static inline ConfabBufferCount *confab_count_buffers(GstPad *pad, gboolean lists_too) {
    ConfabBufferCount *count = g_atomic_rc_box_new0(ConfabBufferCount);
    GstPadProbeType kinds = GST_PAD_PROBE_TYPE_BUFFER | (lists_too ? GST_PAD_PROBE_TYPE_BUFFER_LIST : 0);
    gst_pad_add_probe(pad, kinds, confab_count_buffer, g_atomic_rc_box_acquire(count), (GDestroyNotify) g_atomic_rc_box_release);
    return count;
}
static inline gint confab_buffer_count(ConfabBufferCount *count) { return g_atomic_int_get(&count->buffers); }
static inline gint confab_last_keyframe(ConfabBufferCount *count) { return g_atomic_int_get(&count->last_keyframe); }
static inline void confab_release_buffer_count(ConfabBufferCount *count) { g_atomic_rc_box_release(count); }

/* Lets one buffer in `step` through a pad and drops the others (`step` 1: all pass). The
   setting is a reference-counted box, as the counter above, changed by the caller at any time. */
typedef struct { gint step; gint seen; } ConfabBufferThinning;
static inline GstPadProbeReturn confab_thin_buffer(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void) pad; (void) info;
    ConfabBufferThinning *thinning = (ConfabBufferThinning *) data;
    gint step = g_atomic_int_get(&thinning->step);
    if (step <= 1) return GST_PAD_PROBE_OK;
    /* Only the streaming thread writes `seen`. */
    thinning->seen = (thinning->seen + 1) % step;
    return thinning->seen == 0 ? GST_PAD_PROBE_OK : GST_PAD_PROBE_DROP;
}
static inline ConfabBufferThinning *confab_thin_buffers(GstPad *pad) {
    ConfabBufferThinning *thinning = g_atomic_rc_box_new0(ConfabBufferThinning);
    thinning->step = 1;
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, confab_thin_buffer, g_atomic_rc_box_acquire(thinning),
                      (GDestroyNotify) g_atomic_rc_box_release);
    return thinning;
}
static inline void confab_set_thinning_step(ConfabBufferThinning *thinning, gint step) { g_atomic_int_set(&thinning->step, step); }
static inline void confab_release_thinning(ConfabBufferThinning *thinning) { g_atomic_rc_box_release(thinning); }
