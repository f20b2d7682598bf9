import _LazyInjectShims

/// One resolution under way on this thread: the chain of frames is how cycles are found, how
/// deep chains are stopped before the stack overflows, and what other threads wait for.
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
  static let maximumDepth = 200

  let property: Any.Type
  let containerClass: AnyClass
  /// The container's address; the container is not retained (the caller holds it).
  let container: UnsafeRawPointer
  /// The `@Lazy` property's slot, for a first read; nil for an explicit `resolve`.
  let slot: UnsafeRawPointer?
  @usableFromInline let parent: UnsafeMutablePointer<ResolutionFrame>?
  /// How many frames are outside this one.
  let depth: Int

  /// The `.singleton` or `.weak` registration this resolution builds, once it builds one: other
  /// threads may wait for it.
  var building: ObjectIdentifier?

  /// The override layers whose rules this resolution, and those nested in it, used.
  var taint = LayerTaint()

  /// `"ResourceLoader in UsersViewController.resourceLoader"`; without the property's name for
  /// an explicit `resolve`.
  var summary: String { "\(typeName(property)) in \(propertyPath)" }

  /// `"UsersViewController.resourceLoader"`, or the container's class alone when the property is
  /// unknown.
  var propertyPath: String {
    guard let slot else { return typeName(containerClass) }
    return
      "\(typeName(containerClass)).\(StoredField.name(at: slot - container, in: containerClass))"
  }

  /// Marks `layer` as used by this resolution.
  mutating func use(_ layer: InitializerRegistry) { taint.add(LayerTaint(layer)) }

  /// The innermost resolution under way on this thread, if any.
  static var current: UnsafeMutablePointer<ResolutionFrame>? {
    _lazyinject_current_frame()?.assumingMemoryBound(to: ResolutionFrame.self)
  }

  /// Starts the resolution of `property` for `container`, through `slot` for a `@Lazy`
  /// property: the returned frame is the innermost until ``pop(_:)``.
  ///
  /// - Throws: A cycle error, starting nothing, if this thread is already resolving the same
  ///   thing, is `maximumDepth` resolutions deep, or has nearly used up its stack.
  @usableFromInline static func push(
    property: Any.Type, for container: AnyObject, slot: UnsafeRawPointer?
  ) throws -> UnsafeMutablePointer<ResolutionFrame> {
    assert(_isPOD(ResolutionFrame.self), "a frame field that is not trivial would leak")
    let parent = current
    // Outside any other resolution, only a stack nearly used up can stop this one.
    if parent != nil || _lazyinject_stack_is_low() != 0,
      let error = cycleError(resolving: property, for: container, slot: slot)
    {
      throw error
    }
    // `cycleError` stops at `maximumDepth`, so the arena has room for the frame.
    let pointer =
      parent.map { $0 + 1 }
      ?? _lazyinject_frame_arena(UInt(MemoryLayout<ResolutionFrame>.stride * maximumDepth))
      .bindMemory(to: ResolutionFrame.self, capacity: maximumDepth)
    pointer.initialize(
      to: ResolutionFrame(
        property: property, containerClass: type(of: container),
        container: UnsafeRawPointer(Unmanaged.passUnretained(container).toOpaque()), slot: slot,
        parent: parent, depth: (parent?.pointee.depth ?? -1) + 1))
    _lazyinject_set_current_frame(pointer)
    return pointer
  }

  /// Ends the resolution of `frame`, the innermost, whether it succeeded or threw.
  ///
  /// The frame is left as it is, to be initialized over by the next push: its fields are trivial.
  ///
  /// Inlined: a first read that no other resolution needed (the common one) makes no call.
  @inlinable static func pop(_ frame: UnsafeMutablePointer<ResolutionFrame>) {
    _lazyinject_set_current_frame(frame.pointee.parent)
    if frame.pointee.parent != nil { handOver(frame) }
  }

  /// Adds what the resolution of `frame` used to its parent's: the resolution that needed it
  /// used it too.
  @usableFromInline static func handOver(_ frame: UnsafeMutablePointer<ResolutionFrame>) {
    if let parent = frame.pointee.parent, !frame.pointee.taint.isEmpty {
      parent.pointee.taint.add(frame.pointee.taint)
    }
  }

  /// The resolutions under way on this thread, outermost first.
  static var chain: [ResolutionFrame] {
    current.map { sequence(first: $0, next: \.pointee.parent).map(\.pointee).reversed() } ?? []
  }

  /// The error to report if resolving `property` for `container` (through `slot`) now would
  /// close a cycle on this thread, or go too deep.
  static func cycleError(
    resolving property: Any.Type, for container: AnyObject, slot: UnsafeRawPointer?
  ) -> ResolutionError? {
    let address = UnsafeRawPointer(Unmanaged.passUnretained(container).toOpaque())
    var (next, closesCycle) = (current, false)
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
      property: property, containerClass: type(of: container), container: address, slot: slot,
      parent: nil, depth: 0)
    return .dependencyCycle(
      steps: chain.map(\.summary) + [attempt.summary], isDepthLimit: !closesCycle)
  }
}

/// The override layers whose rules built a value, as a resolution records them and a value's box
/// keeps them: what decides which layer, if any, may keep a shared instance built with it.
///
/// Trivial, like the frames that hold it: layers are named, not retained. Every layer added comes
/// from the task's stack, a chain (a merged stack, or a value of another chain, forbids keeping),
/// so the innermost says it all.
internal struct LayerTaint {
  /// An override layer, as named here: its identity and what comparing layers needs.
  struct Use {
    let identifier: ObjectIdentifier
    let depth: Int
    let root: ObjectIdentifier
  }

  /// The innermost layer used, if any.
  var layer: Use?
  /// Whether the layers used are no single chain (the override layers of more than one registry,
  /// or an object's layers merged with a reader's): no layer may keep what was built with them.
  var forbidsKeeping = false

  init() {}

  /// A use of `layer`.
  init(_ layer: InitializerRegistry) {
    self.layer = Use(
      identifier: ObjectIdentifier(layer), depth: layer.overrideDepth, root: layer.root)
  }

  /// Whether nothing was used.
  var isEmpty: Bool { layer == nil && !forbidsKeeping }

  /// Adds what `other` used.
  mutating func add(_ other: LayerTaint) {
    let otherRoot = other.layer.map { used in layer.map { $0.root != used.root } ?? false }
    forbidsKeeping = forbidsKeeping || other.forbidsKeeping || otherRoot == true
    if let used = other.layer, used.depth > (layer?.depth ?? 0) { layer = used }
  }

  /// The taint of the values `object` keeps in its `@Lazy` properties, which an initializer that
  /// read them may have built with, as seen from `stack`: a value built with a layer that is not
  /// in it forbids keeping.
  ///
  /// Read at the end of a shared instance's build for the object, in a process that made
  /// override layers.
  static func of(_ object: AnyObject, within stack: OverrideStack?) -> LayerTaint {
    var taint = LayerTaint()
    let address = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
    for field in (try? LazyField.fields(of: type(of: object))) ?? [] where !field.isWeak {
      SlotLock.lock(address)
      let word = (address + field.offset).load(as: UInt.self)
      // A value of any type: read as if objects were stored, a `_LazyBox` is an object that the
      // cast tells. Read under the lock: another thread may release the box once unlocked.
      let content = SlotWord.content(
        of: word, marker: _lazyinject_in_flight_marker(), storesObject: true)
      let box =
        content.isValue
        ? Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: word)!)
          .takeUnretainedValue() as? any _TaintedBox : nil
      SlotLock.unlock(address)
      guard let used = box?.taint else { continue }
      taint.add(used)
      if let layer = used.layer, stack?.chain(through: layer.identifier) == nil {
        taint.forbidsKeeping = true
      }
    }
    return taint
  }
}

/// A slot's box, which keeps the taint of its value.
internal protocol _TaintedBox: AnyObject { var taint: LayerTaint { get } }
