#pragma once
#include <gst/gst.h>
#include <gst/sdp/sdp.h>
#include <gst/webrtc/webrtc.h>

// webrtcbin is driven through action signals; g_signal_emit_by_name is variadic and does not
// import into Swift, so each emission gets a typed helper here.

static inline void confab_webrtc_create_offer(GstElement *webrtc, GstPromise *promise) {
    g_signal_emit_by_name(webrtc, "create-offer", NULL, promise);
}
static inline void confab_webrtc_create_answer(GstElement *webrtc, GstPromise *promise) {
    g_signal_emit_by_name(webrtc, "create-answer", NULL, promise);
}
static inline void confab_webrtc_set_local_description(GstElement *webrtc, GstWebRTCSessionDescription *description, GstPromise *promise) {
    g_signal_emit_by_name(webrtc, "set-local-description", description, promise);
}
static inline void confab_webrtc_set_remote_description(GstElement *webrtc, GstWebRTCSessionDescription *description, GstPromise *promise) {
    g_signal_emit_by_name(webrtc, "set-remote-description", description, promise);
}
static inline void confab_webrtc_add_ice_candidate(GstElement *webrtc, guint mline_index, const gchar *candidate) {
    g_signal_emit_by_name(webrtc, "add-ice-candidate", mline_index, candidate);
}
static inline void confab_webrtc_get_stats(GstElement *webrtc, GstPromise *promise) {
    g_signal_emit_by_name(webrtc, "get-stats", NULL, promise);
}
static inline GstWebRTCRTPTransceiver *confab_webrtc_get_transceiver(GstElement *webrtc, gint index) {
    GstWebRTCRTPTransceiver *transceiver = NULL;
    g_signal_emit_by_name(webrtc, "get-transceiver", index, &transceiver);
    return transceiver;
}
/// The SDP text of webrtcbin's "local-description" or "remote-description" (NULL while none
/// is set); free with g_free.
static inline gchar *confab_webrtc_description_text(GstElement *webrtc, const gchar *property) {
    GstWebRTCSessionDescription *description = NULL;
    g_object_get(webrtc, property, &description, NULL);
    if (description == NULL) return NULL;
    gchar *text = gst_sdp_message_as_text(description->sdp);
    gst_webrtc_session_description_free(description);
    return text;
}
/// Restricts ICE to one local address (Janus in tests only sees a namespace's /32 address).
static inline gboolean confab_webrtc_add_local_ip_address(GstElement *webrtc, const gchar *address) {
    GstWebRTCICE *ice = NULL;
    gboolean added = FALSE;
    g_object_get(webrtc, "ice-agent", &ice, NULL);
    if (ice == NULL) return FALSE;
    g_signal_emit_by_name(ice, "add-local-ip-address", address, &added);
    gst_object_unref(ice);
    return added;
}
/// webrtcbin's ice-gathering-state (g_object_get is variadic and does not import).
static inline GstWebRTCICEGatheringState confab_webrtc_ice_gathering_state(GstElement *webrtc) {
    GstWebRTCICEGatheringState state = GST_WEBRTC_ICE_GATHERING_STATE_NEW;
    g_object_get(webrtc, "ice-gathering-state", &state, NULL);
    return state;
}
/// The session description a create-offer/create-answer promise replied with (transfer full), or NULL.
static inline GstWebRTCSessionDescription *confab_promise_take_description(GstPromise *promise, const gchar *field) {
    const GstStructure *reply = gst_promise_get_reply(promise);
    GstWebRTCSessionDescription *description = NULL;
    if (reply == NULL) return NULL;
    if (!gst_structure_get(reply, field, GST_TYPE_WEBRTC_SESSION_DESCRIPTION, &description, NULL)) return NULL;
    return description;
}
/// The error a promise replied with, as text (transfer full), or NULL.
static inline gchar *confab_promise_error_text(GstPromise *promise) {
    const GstStructure *reply = gst_promise_get_reply(promise);
    GError *error = NULL;
    gchar *text = NULL;
    if (reply == NULL || !gst_structure_has_field(reply, "error")) return NULL;
    if (gst_structure_get(reply, "error", G_TYPE_ERROR, &error, NULL) && error != NULL) {
        text = g_strdup(error->message);
        g_error_free(error);
    }
    return text;
}

/// The TWCC summary of webrtcbin's RTP session 0 (with max-bundle every stream is in it):
/// rtpsession's "twcc-stats", over the last 300 ms of our packets the receiver's transport
/// feedback covered. NULL before the session exists. Free with gst_structure_free.
static inline GstStructure *confab_webrtc_twcc_stats(GstElement *webrtc) {
    GstElement *rtpbin = gst_bin_get_by_name(GST_BIN(webrtc), "rtpbin");
    if (rtpbin == NULL) return NULL;
    GstElement *session = NULL;
    g_signal_emit_by_name(rtpbin, "get-session", 0u, &session);
    gst_object_unref(rtpbin);
    if (session == NULL) return NULL;
    GstStructure *stats = NULL;
    g_object_get(session, "twcc-stats", &stats, NULL);
    gst_object_unref(session);
    return stats;
}

static inline void confab_jitterbuffer_start_early(GstElement *rtpbin, GstElement *jitterbuffer, guint session, guint ssrc, gpointer packets) {
    (void)rtpbin; (void)session; (void)ssrc;
    g_object_set(jitterbuffer, "faststart-min-packets", GPOINTER_TO_UINT(packets), NULL);
}

/// Each jitterbuffer webrtcbin makes from now on passes its first packets on once `packets`
/// in a row have come, instead of holding the first for the whole latency. FALSE when
/// webrtcbin has no rtpbin.
static inline gboolean confab_webrtc_start_jitterbuffers_early(GstElement *webrtc, guint packets) {
    GstElement *rtpbin = gst_bin_get_by_name(GST_BIN(webrtc), "rtpbin");
    if (rtpbin == NULL) return FALSE;
    g_signal_connect(rtpbin, "new-jitterbuffer", G_CALLBACK(confab_jitterbuffer_start_early), GUINT_TO_POINTER(packets));
    gst_object_unref(rtpbin);
    return TRUE;
}
