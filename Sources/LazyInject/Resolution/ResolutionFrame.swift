import _LazyInjectShims

/// One resolution under way on this thread: the chain of frames is how cycles are found.
///
/// Frames live on the call stack and are linked through a thread-local pointer, so tracking
/// costs no allocation.
internal struct ResolutionFrame {
  /// Deeper than this, a chain is reported as a cycle before the stack overflows.
  static let maximumDepth = 200

  let property: Any.Type
  let containerClass: AnyClass
  let container: ObjectIdentifier
  let parent: UnsafeMutableRawPointer?

  /// `"ResourceLoader in UsersViewController"`.
  var summary: String {
    "\(typeName(property)) in \(typeName(containerClass))"
  }

  /// Runs `body` as the resolution of `property` for `container`.
  ///
  /// - Throws: A cycle error, without running `body`, if this thread is already resolving
  ///   `property` for `container` or is `maximumDepth` resolutions deep.
  static func push<Result>(
    property: Any.Type, for container: AnyObject, _ body: () throws -> Result
  ) throws -> Result {
    if let error = cycleError(resolving: property, for: container) {
      throw error
    }
    var frame = ResolutionFrame(
      property: property, containerClass: type(of: container),
      container: ObjectIdentifier(container), parent: _lazyinject_current_frame())
    return try withUnsafeMutablePointer(to: &frame) { pointer in
      _lazyinject_set_current_frame(pointer)
      defer { _lazyinject_set_current_frame(pointer.pointee.parent) }
      return try body()
    }
  }

  /// The resolutions under way on this thread, outermost first.
  static var chain: [ResolutionFrame] {
    var frames: [ResolutionFrame] = []
    var next = _lazyinject_current_frame()
    while let pointer = next {
      let frame = pointer.assumingMemoryBound(to: ResolutionFrame.self).pointee
      frames.append(frame)
      next = frame.parent
    }
    return frames.reversed()
  }

  /// The error to report if resolving `property` for `container` now would close a cycle.
  static func cycleError(resolving property: Any.Type, for container: AnyObject) -> ResolutionError?
  {
    var depth = 0
    var next = _lazyinject_current_frame()
    var closesCycle = false
    while let pointer = next {
      let frame = pointer.assumingMemoryBound(to: ResolutionFrame.self).pointee
      if frame.property == property && frame.container == ObjectIdentifier(container) {
        closesCycle = true
        break
      }
      depth += 1
      next = frame.parent
    }
    guard closesCycle || depth >= maximumDepth else { return nil }
    let steps = chain.map(\.summary) + ["\(typeName(property)) in \(typeName(type(of: container)))"]
    return .dependencyCycle(steps: steps, isDepthLimit: !closesCycle)
  }
}
