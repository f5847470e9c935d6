/// Where the items of a `PriorityRow` go at a given width: plain arithmetic over measured
/// sizes, kept apart from GTK so that the rules can be tested without a display.
///
/// The rules, widest first: every item with its caption; every item without captions; then
/// items are left out, lowest priority first (the last of equals first), and the row's overflow
/// item is shown so that the owner can offer them there. Items without a priority are never
/// left out; a row too narrow even for them is cut off rather than losing them.
public struct PriorityRowPlan: Equatable, Sendable {
    public struct Item: Equatable, Sendable {
        /// The control's own width, and its caption's (0 without a caption).
        public var width: Int
        public var captionWidth: Int
        /// Items of one group sit `spacing` apart; groups sit `groupSpacing` apart.
        public var group: Int
        /// Lower goes first when space runs out; nil is never left out.
        public var priority: Int?
        /// The overflow item: shown when something is left out, or when the owner wants it.
        public var isOverflow: Bool
        /// Hidden by its owner (GTK's `visible`): takes no space and is never "left out".
        public var isPresent: Bool

        public init(width: Int, captionWidth: Int = 0, group: Int, priority: Int? = nil, isOverflow: Bool = false, isPresent: Bool = true) {
            self.width = width
            self.captionWidth = captionWidth
            self.group = group
            self.priority = priority
            self.isOverflow = isOverflow
            self.isPresent = isPresent
        }
    }

    /// Captions are shown under the controls.
    public var showsCaptions: Bool
    /// Indices of the items that are shown (the overflow item included when it is).
    public var shown: [Int]
    /// Indices of present items left out for lack of space.
    public var leftOut: Set<Int>

    public init(showsCaptions: Bool, shown: [Int], leftOut: Set<Int>) {
        self.showsCaptions = showsCaptions
        self.shown = shown
        self.leftOut = leftOut
    }

    /// The plan for `available` pixels. `overflowWanted`: the overflow item has content of its
    /// own and shows even when nothing is left out.
    public static func make(items: [Item], available: Int, spacing: Int, groupSpacing: Int, overflowWanted: Bool) -> PriorityRowPlan {
        let overflow = items.indices.filter { items[$0].isOverflow && items[$0].isPresent }
        let regular = items.indices.filter { !items[$0].isOverflow && items[$0].isPresent }
        let withOverflow: ([Int]) -> [Int] = { kept in (kept + overflow).sorted() }
        let full = overflowWanted ? withOverflow(regular) : regular
        if width(of: full, in: items, captions: true, spacing: spacing, groupSpacing: groupSpacing) <= available {
            return PriorityRowPlan(showsCaptions: true, shown: full, leftOut: [])
        }
        if width(of: full, in: items, captions: false, spacing: spacing, groupSpacing: groupSpacing) <= available {
            return PriorityRowPlan(showsCaptions: false, shown: full, leftOut: [])
        }
        // Lowest priority first; of equals, the one further along the row first.
        let droppable = regular.filter { items[$0].priority != nil }
            .sorted { (items[$0].priority!, -$0) < (items[$1].priority!, -$1) }
        var kept = regular
        var leftOut: Set<Int> = []
        for index in droppable {
            if width(of: withOverflow(kept), in: items, captions: false, spacing: spacing, groupSpacing: groupSpacing) <= available { break }
            kept.removeAll { $0 == index }
            leftOut.insert(index)
        }
        return PriorityRowPlan(showsCaptions: false, shown: withOverflow(kept), leftOut: leftOut)
    }

    /// The row's narrowest width (only what is never left out, with the overflow item) and its
    /// natural width (everything, captioned).
    public static func widths(items: [Item], spacing: Int, groupSpacing: Int, overflowWanted: Bool) -> (minimum: Int, natural: Int) {
        let present = items.indices.filter { items[$0].isPresent }
        let essential = present.filter { items[$0].isOverflow || items[$0].priority == nil }
        let everything = overflowWanted ? present : present.filter { !items[$0].isOverflow }
        return (width(of: essential, in: items, captions: false, spacing: spacing, groupSpacing: groupSpacing),
                width(of: everything, in: items, captions: true, spacing: spacing, groupSpacing: groupSpacing))
    }

    /// The width of the slot each shown item gets (its caption may be wider than it).
    public func slotWidth(of item: Item) -> Int { showsCaptions ? max(item.width, item.captionWidth) : item.width }

    static func width(of indices: [Int], in items: [Item], captions: Bool, spacing: Int, groupSpacing: Int) -> Int {
        var total = 0
        var previousGroup: Int?
        for index in indices {
            let item = items[index]
            if let previousGroup { total += previousGroup == item.group ? spacing : groupSpacing }
            total += captions ? max(item.width, item.captionWidth) : item.width
            previousGroup = item.group
        }
        return total
    }
}
