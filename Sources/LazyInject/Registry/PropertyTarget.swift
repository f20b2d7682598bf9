/// The property a rule for one property is for, given by the key path to its projected value.
///
/// A key path to the wrapped value cannot be matched to a slot without reading the property;
/// applying the key path to the projection tells the slot (LazyInject's own subscript makes the
/// projection from the object and the slot's address, reading nothing; a key path through
/// computed properties runs their getters). The offset found is kept per class, since a
/// subclass may override a computed property on the way: later first reads compare offsets.
///
/// `@unchecked Sendable`: the offsets are guarded by their locks (`Protected`); the key path is an
/// immutable object, applied from any thread only to make a projection, which reads no state of
/// the object.
@usableFromInline package final class PropertyTarget: @unchecked Sendable {
  /// The key path's root class.
  let rootClass: AnyClass
  /// The key path, whose equality (root type included) tells one property rule from another.
  let keyPath: AnyKeyPath
  /// The type of the property's storage: reflection finds the candidates by it.
  private let storageType: Any.Type
  /// Applies the key path to an object of the root class: the object the projection belongs to
  /// and the slot's address.
  private let project: Project
  typealias Project = (AnyObject) -> (container: AnyObject, slot: UnsafeRawPointer)
  /// The slot's offset in objects of each class a first read or `validate` applied a key path
  /// to, by key path: every rule for one key path (of any registry or layer) knows its property
  /// once one found it.
  ///
  /// Kept per class, since a subclass may override a computed property on the way.
  private static let offsets = Protected<[AnyKeyPath: [ObjectIdentifier: Int]]>([:])

  /// The property that `path`, rooted at `root`, leads to, applied by `project`.
  ///
  /// The wrapper makes one from a key path to its projection (`LazyProjection.swift`): this
  /// folder names no wrapper type.
  init(root: AnyClass, path: AnyKeyPath, storage: Any.Type, project: @escaping Project) {
    rootClass = root
    keyPath = path
    storageType = storage
    self.project = project
  }

  /// The offset of the property's slot in `container`, an object of the root class or one of its
  /// subclasses; nil when the key path leads to a property of another object
  /// (`\UsersViewController.session.$token`), whose class `ownerClass(in:)` tells.
  func offset(in container: AnyObject) -> Int? {
    let containerClass = ObjectIdentifier(type(of: container))
    if let known = Self.offsets.withLock({ $0[keyPath]?[containerClass] }) { return known }
    // Applied without a lock held: a key path through another object's getters runs user code.
    let (owner, slot) = project(container)
    guard owner === container else { return nil }
    let found = slot - RawMemory.address(of: container)
    Self.offsets.withLock { $0[keyPath, default: [:]][containerClass] = found }
    return found
  }

  /// The class of the object whose property the key path leads to, from `container`.
  func ownerClass(in container: AnyObject) -> AnyClass { type(of: project(container).container) }

  /// The root class's `@Lazy` properties of the type: what the key path may name.
  private var candidates: [LazyField] {
    ((try? LazyField.fields(of: rootClass)) ?? []).filter { $0.storageType == storageType }
  }

  /// The offset, without an object: known once a first read or `validate(_:)` applied the key
  /// path (in the root class if it did, else in any), or told by the root class having one
  /// `@Lazy` property of the type (a key path to the projection of another object's property
  /// is reported at its first use); nil otherwise.
  package var offsetWithoutObject: Int? {
    let known = Self.offsets.withLock { offsets -> Int? in
      guard let byClass = offsets[keyPath] else { return nil }
      return byClass[ObjectIdentifier(rootClass)] ?? byClass.values.first
    }
    if let known {
      return known
    }
    // Not applied yet: known only if the root class has one property the key path may name.
    let fields = candidates
    return fields.count == 1 ? fields[0].offset : nil
  }

  /// `"auditLog"`: the property's name, once its offset is known without an object (nil before
  /// that, or when reflection cannot tell: a module built without reflection names); and the
  /// names of the root class's `@Lazy` properties of the type that the key path may name: the
  /// one it names once that is known (its name may be missing).
  var names: (name: String?, candidates: [String]) {
    let all = candidates
    guard let offset = offsetWithoutObject, let known = all.first(where: { $0.offset == offset })
    else { return (nil, all.map(\.displayName)) }
    return (known.name, [known.displayName])
  }
}
