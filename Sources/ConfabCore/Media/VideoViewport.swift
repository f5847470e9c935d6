/// The pixel size at which a view shows video (a participant's tile, the self-view), so that
/// frames are scaled once, in GStreamer, to what is shown — not decoded at 640x360, converted
/// whole and scaled again by GTK on the main thread (issue 15). The view sets `pixelSize`
/// when its allocation changes; whoever feeds it frames watches `changes`.
@MainActor
public final class VideoViewport {
    /// Device pixels; nil until the view has been laid out.
    public private(set) var pixelSize: VideoSize?
    /// Told of every new size.
    public let changes = Listeners<VideoSize>()

    public init() {}

    /// A new allocation: tells the watchers when it differs from the last.
    public func update(_ size: VideoSize) {
        guard size.width > 0, size.height > 0, size != pixelSize else { return }
        pixelSize = size
        changes.send(size)
    }

    /// The size to scale a `source`-sized picture to so that it covers `tile` (the tiles crop,
    /// GtkPicture's COVER fit) at exactly one frame pixel per screen pixel: GTK then only
    /// clips and copies. The side that overflows keeps the tile's parity, so the picture is
    /// centred on a whole pixel (a half-pixel offset makes cairo resample every frame).
    /// Never larger than `limit` (a huge window gains nothing over the source's detail).
    nonisolated public static func coverSize(of source: VideoSize, in tile: VideoSize, limit: VideoSize = VideoSize(width: 1920, height: 1080)) -> VideoSize {
        guard source.width > 0, source.height > 0, tile.width > 0, tile.height > 0 else { return source }
        let sourceAspect = Double(source.width) / Double(source.height)
        var width = tile.width, height = tile.height
        if Double(tile.width) / Double(tile.height) > sourceAspect {
            height = Self.sameParity(Double(tile.width) / sourceAspect, as: tile.height)
        } else {
            width = Self.sameParity(Double(tile.height) * sourceAspect, as: tile.width)
        }
        if width > limit.width || height > limit.height {
            let shrink = min(Double(limit.width) / Double(width), Double(limit.height) / Double(height))
            width = max(2, Int((Double(width) * shrink).rounded()) & ~1)
            height = max(2, Int((Double(height) * shrink).rounded()) & ~1)
        }
        return VideoSize(width: width, height: height)
    }

    /// `value` rounded up to a whole number of `reference`'s parity, and at least `reference`.
    nonisolated private static func sameParity(_ value: Double, as reference: Int) -> Int {
        var rounded = max(reference, Int(value.rounded(.up)))
        if (rounded - reference) % 2 != 0 { rounded += 1 }
        return rounded
    }
}
