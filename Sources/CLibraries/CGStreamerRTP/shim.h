#pragma once
#include <gst/gst.h>
#include <gst/rtp/rtp.h>

/// Makes `payloader` add the RFC 6464 audio-level header extension (id `id`) to its packets,
/// from the GstAudioLevelMeta a `level audio-level-meta=true` element puts on buffers. Janus
/// computes talking events from it. ("add-extension" is an action signal: variadic emission.)
static inline gboolean confab_add_audio_level_extension(GstElement *payloader, guint id) {
    GstRTPHeaderExtension *extension = gst_rtp_header_extension_create_from_uri("urn:ietf:params:rtp-hdrext:ssrc-audio-level");
    if (extension == NULL) return FALSE;
    gst_rtp_header_extension_set_id(extension, id);
    g_signal_emit_by_name(payloader, "add-extension", extension);
    gst_object_unref(extension);
    return TRUE;
}
