#pragma once
#include <gst/gst.h>
#include <gst/rtp/rtp.h>

/// Makes `payloader` add the RTP header extension named by `uri` (id `id`) to its packets.
/// The extension's element writes it (the audio level from the GstAudioLevelMeta a
/// `level audio-level-meta=true` element puts on buffers; the transport-wide sequence number,
/// which rtpsession renumbers as packets leave). The payloader's caps then carry the extmap,
/// which webrtcbin puts in the offer. ("add-extension" is an action signal: variadic emission.)
static inline gboolean confab_add_header_extension(GstElement *payloader, const char *uri, guint id) {
    GstRTPHeaderExtension *extension = gst_rtp_header_extension_create_from_uri(uri);
    if (extension == NULL) return FALSE;
    gst_rtp_header_extension_set_id(extension, id);
    g_signal_emit_by_name(payloader, "add-extension", extension);
    gst_object_unref(extension);
    return TRUE;
}
