/// The `@Lazy` property a property rule is for, given by the key path to its projected value.
///
/// A key path to the wrapped value cannot be matched to a slot without reading the property;
/// applying the key path to the projection is side-effect free (LazyInject's own subscript makes
/// the projection from the object and the slot's address) and tells the slot. Its offset in the
/// object is the same in every object of the root class and its subclasses, so the first offset
/// found is kept: later first reads compare offsets.
///
/// `@unchecked Sendable`: the offsets are guarded by their locks (`Protected`); the key path is an
/// immutable object, applied from any thread only to make a projection, which reads no state of
/// the object.
internal final class PropertyTarget: @unchecked Sendable {
  /// The key path's root class.
  let rootClass: AnyClass
  /// The key path, whose equality (root type included) tells one property rule from another.
  let keyPath: AnyKeyPath
  /// `Lazy<Value>`, the type of the property's storage: reflection finds the candidates by it.
  private let storageType: Any.Type
  /// Applies the key path to an object of the root class: the object the projection belongs to
  /// and the slot's address.
  private let project: (AnyObject) -> (container: AnyObject, slot: UnsafeRawPointer)
  /// The slot's offset in the object, once a first read or `validate` applied the key path.
  private let offset = Protected<Int?>(nil)

  /// The offsets found for every key path, by any rule: a rule for a key path another rule (of
  /// another registry or layer) applied knows its property too.
  private static let offsets = Protected<[AnyKeyPath: Int]>([:])

  init<Root: AnyObject, Value>(_ keyPath: KeyPath<Root, LazyProjection<Value>>) {
    rootClass = Root.self
    self.keyPath = keyPath
    storageType = Lazy<Value>.self
    project = { object in
      let projection = unsafeDowncast(object, to: Root.self)[keyPath: keyPath]
      return (projection.container, UnsafeRawPointer(projection.slot.address))
    }
  }

  /// The offset of the property's slot in `container`, an object of the root class or one of its
  /// subclasses.
  ///
  /// - Throws: ``ResolutionError/Kind/invalidPropertyKeyPath`` when the key path leads to a
  ///   property of another object (`\UsersViewController.session.$token`).
  func offset(in container: AnyObject, rule: RuleSource) throws -> Int {
    if let known = knownOffset {
      return known
    }
    // Applied without a lock held: a key path through another object's getters runs user code.
    let (owner, slot) = project(container)
    guard owner === container else {
      throw ResolutionError.invalidPropertyKeyPath(
        rule: rule.rule, containerClass: type(of: container), ownerClass: type(of: owner))
    }
    let found = slot - UnsafeRawPointer(Unmanaged.passUnretained(container).toOpaque())
    offset.withLock { $0 = found }
    Self.offsets.withLock { $0[keyPath] = found }
    return found
  }

  /// The offset, if this rule or another for the same key path found it.
  private var knownOffset: Int? {
    if let own = offset.withLock({ $0 }) {
      return own
    }
    guard let shared = Self.offsets.withLock({ $0[keyPath] }) else { return nil }
    offset.withLock { $0 = shared }
    return shared
  }

  /// The offset, without an object: known once a first read or `validate(_:)` applied the key
  /// path, or told by the root class having one `@Lazy` property of the type (a key path to the
  /// projection of another object's property is reported at its first use); nil otherwise.
  var offsetWithoutObject: Int? {
    if let known = knownOffset {
      return known
    }
    let fields = LazyField.fields(of: rootClass)?.filter { $0.storageType == storageType } ?? []
    return fields.count == 1 ? fields[0].offset : nil
  }

  /// `"auditLog"`: the property's name, once a first read or `validate` told its slot, or when
  /// the root class (with its superclasses) has only one `@Lazy` property of the type; nil
  /// before that, or when reflection cannot tell.
  var propertyName: String? {
    let fields = LazyField.fields(of: rootClass)?.filter { $0.storageType == storageType } ?? []
    if let known = knownOffset {
      return fields.first { $0.offset == known }?.name
    }
    return fields.count == 1 ? fields[0].name : nil
  }

  /// The names of the root class's `@Lazy` properties of the type: what the key path may name.
  var candidateNames: [String] {
    (LazyField.fields(of: rootClass) ?? []).filter { $0.storageType == storageType }.map(\.name)
  }
}
