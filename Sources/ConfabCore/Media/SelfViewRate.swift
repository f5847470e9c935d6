/// How many of our camera's frames the self-view shows (issue 15: "the self-view at a lower rate
/// in big calls"). With three or more others in the call, every other one: the self-view is a
/// check that the camera runs and frames us well, which 15 frames a second show as well as 30,
/// and each frame it does not show is one less conversion and one less draw on the machine that
/// also decodes and draws everyone else. What is sent is not touched.
public enum SelfViewRate {
    /// Others in the call from which the self-view drops to every other frame.
    public static let othersForHalfRate = 3

    /// The self-view shows one camera frame in this many.
    public static func frameStep(othersInCall: Int) -> Int {
        othersInCall >= othersForHalfRate ? 2 : 1
    }
}
