import _LazyInjectShims

/// One resolution under way on this thread: the chain of frames is how cycles are found, how
/// deep chains are stopped before the stack overflows, what other threads wait for, and where
/// the override layers a build uses are recorded.
///
/// Frames live in a per-thread arena (allocated once per thread, `maximumDepth` frames long) and
/// are linked through a thread-local pointer: tracking costs no allocation per resolution, and
/// none of the call stack, which deep chains need for the initializers themselves.
///
/// Every field is trivial (no reference counted): a frame is initialized over by the next push
/// and never deinitialized, so a field that owned something would leak. Debug builds check it.
@usableFromInline internal struct ResolutionFrame {
  /// Deeper than this, a chain is reported as a cycle.
  ///
  /// A thread whose stack is nearly used up stops earlier, whatever its depth.
  @inlinable static var maximumDepth: Int { 200 }

  @usableFromInline let property: Any.Type
  /// The container's address; the container is not retained (the caller holds it).
  @usableFromInline let container: UnsafeRawPointer
  /// The `@Lazy` property's slot, for a first read; nil for an explicit `resolve`.
  @usableFromInline let slot: UnsafeRawPointer?
  @usableFromInline let parent: UnsafeMutablePointer<ResolutionFrame>?
  /// How many frames are outside this one.
  @usableFromInline let depth: Int

  /// The `.singleton` or `.weak` registration this resolution builds, once it builds one: other
  /// threads may wait for it.
  @usableFromInline var building: ObjectIdentifier?

  /// The override layers whose rules this resolution used, and those nested in it, and those
  /// that built the values it read.
  @usableFromInline var uses: LayersUsed

  @inlinable init(
    property: Any.Type, container: UnsafeRawPointer, slot: UnsafeRawPointer?,
    parent: UnsafeMutablePointer<ResolutionFrame>?, depth: Int
  ) {
    self.property = property
    self.container = container
    self.slot = slot
    self.parent = parent
    self.depth = depth
    building = nil
    uses = LayersUsed()
  }

  /// What it builds, as messages name it: its `summary` is `"ResourceLoader in
  /// UsersViewController.resourceLoader"` (without the property's name for an explicit
  /// `resolve`), its `container` `"UsersViewController.resourceLoader"`.
  var step: WaitGraph.Step {
    let object = RawMemory.object(atWord: RawMemory.word(container))
    let offset = slot.map { slot in slot - container }
    return .property(property, in: type(of: object), offset: offset)
  }

  /// The innermost resolution under way on this thread, if any.
  static var current: UnsafeMutablePointer<ResolutionFrame>? {
    _lazyinject_current_frame()?.assumingMemoryBound(to: ResolutionFrame.self)
  }

  /// Starts the resolution of `property` for `container`, through `slot` for a `@Lazy`
  /// property: the returned frame is the innermost until ``pop(_:)``.
  ///
  /// - Throws: A cycle error, starting nothing, if this thread is already resolving the same
  ///   thing, is `maximumDepth` resolutions deep, or, inside another resolution, has nearly used
  ///   up its stack.
  ///
  /// Inlined: the outermost resolution of a thread (the common first read) looks for no cycle,
  /// and makes no call. Nor does it look at the stack: a chain of resolutions uses it up only by
  /// nesting, and the first look of a thread costs a system call (on Linux's main thread, a
  /// read of the process's memory map: 590,000 instructions, measured).
  @inlinable @inline(__always) static func push(
    property: Any.Type, for container: AnyObject, slot: UnsafeRawPointer?
  ) throws -> UnsafeMutablePointer<ResolutionFrame> {
    guard _lazyinject_current_frame() == nil else {
      return try pushNested(property: property, for: container, slot: slot)
    }
    let pointer = _lazyinject_frame_arena(UInt(MemoryLayout<ResolutionFrame>.stride * maximumDepth))
      .bindMemory(to: ResolutionFrame.self, capacity: maximumDepth)
    let object = RawMemory.address(of: container)
    pointer.initialize(
      to: ResolutionFrame(property: property, container: object, slot: slot, parent: nil, depth: 0))
    _lazyinject_set_current_frame(pointer)
    return pointer
  }

  /// Starts a resolution inside others, as `push` does.
  @usableFromInline static func pushNested(
    property: Any.Type, for container: AnyObject, slot: UnsafeRawPointer?
  ) throws -> UnsafeMutablePointer<ResolutionFrame> {
    assert(_isPOD(ResolutionFrame.self), "a frame field that is not trivial would leak")
    let parent = current!  // `push` calls this only inside another resolution.
    let address = RawMemory.address(of: container)
    if let error = cycleError(resolving: property, for: address, slot: slot) { throw error }
    // `cycleError` stops at `maximumDepth`, so the arena has room for the frame.
    let pointer = parent + 1
    pointer.initialize(
      to: ResolutionFrame(
        property: property, container: address, slot: slot, parent: parent,
        depth: parent.pointee.depth + 1))
    _lazyinject_set_current_frame(pointer)
    return pointer
  }

  /// Ends the resolution of `frame`, the innermost, whether it succeeded or threw.
  ///
  /// The frame is left as it is, to be initialized over by the next push: its fields are trivial.
  ///
  /// Inlined: a first read that no other resolution needed and that used no layer (the common
  /// one) makes no call.
  @inlinable static func pop(_ frame: UnsafeMutablePointer<ResolutionFrame>) {
    _lazyinject_set_current_frame(frame.pointee.parent)
    if _lazyinject_layers_made() != 0 { handOver(frame) }
  }

  /// Adds the layers the resolution of `frame` used to its parent's, or, outside any, to the
  /// shared build under way on the task (an async one, or one around an object's first reads):
  /// the resolution that needed this one used them too.
  ///
  /// Under an object's layers merged with a reader's that are no single chain (see
  /// `OverrideStack.isMerged`: the task's layers, the same from the push to the pop), the layers
  /// it used are no single chain either.
  @usableFromInline static func handOver(_ frame: UnsafeMutablePointer<ResolutionFrame>) {
    var uses = frame.pointee.uses
    guard !uses.isEmpty else { return }
    uses.isMixed = uses.isMixed || OverrideScope.current?.isMerged == true
    add(uses, to: frame.pointee.parent)
  }

  /// Notes that the resolution under way (or the task's shared build) read a value built with
  /// the layers `uses`: it may have built with that value.
  ///
  /// A value built with a layer that is not in the task's stack (an object's, read from another
  /// test's layer) makes the layers used no single chain.
  static func noteRead(_ uses: LayersUsed) {
    guard !uses.isEmpty else { return }
    var uses = uses
    if let layer = uses.layer, OverrideScope.current?.chain(through: layer.identifier) == nil {
      uses.isMixed = true
    }
    add(uses, to: current)
  }

  /// Adds `uses` to the layers `frame` used, or with no frame, to the task's shared build's.
  private static func add(_ uses: LayersUsed, to frame: UnsafeMutablePointer<ResolutionFrame>?) {
    if let frame { return frame.pointee.uses.add(uses) }
    OverrideScope.sharedBuild?.uses.withLock { $0.add(uses) }
  }

  /// The resolutions under way on this thread, outermost first.
  static var chain: [ResolutionFrame] {
    current.map { sequence(first: $0, next: \.pointee.parent).map(\.pointee).reversed() } ?? []
  }

  /// The error to report if resolving `property` for the object at `address` (through `slot`)
  /// now would close a cycle on this thread, or go too deep.
  static func cycleError(
    resolving property: Any.Type, for address: UnsafeRawPointer, slot: UnsafeRawPointer?
  ) -> ResolutionError? {
    var next = current
    var closesCycle = false
    let isTooDeep =
      (next?.pointee.depth ?? -1) + 1 >= maximumDepth || _lazyinject_stack_is_low() != 0
    while !isTooDeep, !closesCycle, let frame = next?.pointee {
      // A frame resolving the same thing: the same `@Lazy` property, or, when either is an
      // explicit `resolve`, the same type for the same object.
      closesCycle =
        frame.container == address
        && (slot == nil || frame.slot == nil ? frame.property == property : frame.slot == slot)
      next = frame.parent
    }
    guard closesCycle || isTooDeep else { return nil }
    let attempt = ResolutionFrame(
      property: property, container: address, slot: slot, parent: nil, depth: 0)
    return .dependencyCycle(
      steps: chain.map(\.step.summary) + [attempt.step.summary], isDepthLimit: !closesCycle)
  }
}
