/// A fixed-capacity set of request ids for `run()`: no allocation after init.
final class RequestTable {
    let capacity: Int
    private let ids: UnsafeMutablePointer<Int64>
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = capacity
        ids = .allocate(capacity: capacity)
    }

    deinit { ids.deallocate() }

    var isFull: Bool { count == capacity }

    func contains(_ id: Int64) -> Bool {
        for i in 0..<count where ids[i] == id { return true }
        return false
    }

    /// False when full.
    @discardableResult
    func insert(_ id: Int64) -> Bool {
        guard !isFull else { return false }
        if !contains(id) {
            ids[count] = id
            count += 1
        }
        return true
    }

    @discardableResult
    func remove(_ id: Int64) -> Bool {
        for i in 0..<count where ids[i] == id {
            ids[i] = ids[count - 1]
            count -= 1
            return true
        }
        return false
    }

    subscript(index: Int) -> Int64 { ids[index] }

    func removeAll() { count = 0 }
}
