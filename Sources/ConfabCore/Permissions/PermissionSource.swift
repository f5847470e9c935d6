/// Something that knows whether Confab may use the camera or microphone: the desktop's privacy
/// settings, the camera portal, the device nodes, the microphone's levels. The desktop module
/// implements them over GLib; ConfabCore's tests use fakes.
@MainActor
public protocol PermissionSource: AnyObject {
    /// A short name for logs ("privacy settings", "camera portal").
    var name: String { get }
    /// Starts watching; `onChange` gets a report for each device it knows about now and after
    /// every change. A source that never speaks about a device leaves it to the others.
    func start(onChange: @escaping @MainActor (PermissionDevice, PermissionReport) -> Void)
    func stop()
    /// Asks the system for access (shows the portal's dialog); returns whether it was granted.
    /// Sources that cannot ask return false without doing anything.
    func requestAccess(to device: PermissionDevice) async -> Bool
}

extension PermissionSource {
    public func requestAccess(to device: PermissionDevice) async -> Bool { false }
}
