@_spi(Reflection) import Swift
import _LazyInjectShims

/// A stored property of a class, as its metadata describes it.
package struct StoredField {
  /// The name as declared, without the underscore of a property wrapper's storage (`@Lazy var
  /// loader` is stored as `_loader`); nil where the module was built without reflection names.
  package let name: String?
  package let offset: Int
  package let type: Any.Type

  /// Why the stored properties of a class cannot be listed.
  package enum Unreadable: Error {
    /// This OS has no field reflection (before iOS 13.4, macOS 10.15.4, tvOS 13.4, watchOS 6.2).
    case unavailableOnThisOS
    /// The class, or a superclass, was built without reflection metadata.
    case missingMetadata(AnyClass)
    /// The class, or a superclass, is an Objective-C class (such as one declared
    /// `@objc @implementation`), whose properties Swift reflection does not list.
    case objectiveCClass(AnyClass)
  }

  /// What is written for a property whose name reflection cannot tell.
  package static let unnamed =
    "(a property whose name is missing: its module was built without reflection names,"
    + " SWIFT_REFLECTION_METADATA_LEVEL = without-names)"

  /// The stored properties of `containerClass` and its superclasses.
  ///
  /// - Throws: Why they cannot be listed: where reflection metadata was left out, the standard
  ///   library would list none, as for a class with no stored property.
  package static func fields(of containerClass: AnyClass) throws(Unreadable) -> [StoredField] {
    guard #available(macOS 10.15.4, iOS 13.4, tvOS 13.4, watchOS 6.2, *) else {
      throw .unavailableOnThisOS
    }
    for owner in ancestry(of: containerClass) {
      let metadata = unsafeBitCast(owner, to: UnsafeRawPointer.self)
      guard _lazyinject_is_swift_class(metadata) != 0 else {
        // An Objective-C ancestor of a Swift class declares no Swift field; the class itself
        // must be a Swift one.
        if owner == containerClass { throw .objectiveCClass(owner) }
        break
      }
      guard _lazyinject_has_field_records(metadata) != 0 else { throw .missingMetadata(owner) }
    }
    var fields: [StoredField] = []
    // `.classType` (1 << 0; the static property is not concurrency-safe) lists the superclasses'
    // stored properties too.
    let isListed = _forEachField(of: containerClass, options: _EachFieldOptions(rawValue: 1 << 0)) {
      field, offset, type, _ in
      let stored = String(cString: field)
      let name = stored.hasPrefix("_") ? String(stored.dropFirst()) : stored
      fields.append(StoredField(name: name.isEmpty ? nil : name, offset: offset, type: type))
      return true
    }
    guard isListed else { throw .missingMetadata(containerClass) }
    return fields
  }

  /// The name of the property at `offset` in objects of `containerClass`, or a phrase that says
  /// why it is unknown.
  package static func name(at offset: Int, in containerClass: AnyClass) -> String {
    guard let field = try? fields(of: containerClass).first(where: { $0.offset == offset })
    else { return "(a property whose name is missing: no reflection metadata)" }
    return field.name ?? unnamed
  }
}

/// A stored `@Lazy` or `@WeakLazy` property of a class, found by reflection of its class's
/// metadata: nothing of an object is read to find it.
package struct LazyField {
  /// The name as declared, as in `"auditLog"`; nil without reflection names.
  package let name: String?
  /// The offset of the property's slot in an object of the class.
  package let offset: Int
  /// `Lazy<Value>` or `WeakLazy<Value>`.
  package let storageType: Any.Type
  /// The type the property resolves: `Value` for `@Lazy`, `Value?` for `@WeakLazy`.
  package let valueType: Any.Type
  /// Whether it is a `@WeakLazy` property.
  package let isWeak: Bool
  /// The class that declares it: the class itself or a superclass.
  package let declaringClass: AnyClass

  /// The name, or a phrase that says why it is missing.
  package var displayName: String { name ?? StoredField.unnamed }

  /// The value the property holds in `container`, if resolved; nil for `@WeakLazy`, which keeps
  /// nothing alive.
  package func value(in container: AnyObject) -> Any? {
    (storageType as? any _LazyStorage.Type)?.value(in: container, at: offset)
  }

  /// The `@Lazy` and `@WeakLazy` properties of `containerClass` and its superclasses,
  /// superclasses' first, in declaration order.
  package static func fields(of containerClass: AnyClass) throws(StoredField.Unreadable)
    -> [LazyField]
  {
    if let known = cache.withLock({ $0[ObjectIdentifier(containerClass)] }) { return known }
    var fields: [LazyField] = []
    var inherited = 0  // How many stored properties the superclasses declare.
    for declaringClass in ancestry(of: containerClass).reversed() {
      guard
        _lazyinject_is_swift_class(unsafeBitCast(declaringClass, to: UnsafeRawPointer.self)) != 0
      else { continue }
      let stored = try StoredField.fields(of: declaringClass)
      for field in stored.dropFirst(inherited) {
        guard let storage = field.type as? any _LazyStorage.Type else { continue }
        fields.append(
          LazyField(
            name: field.name, offset: field.offset, storageType: field.type,
            valueType: storage.valueType, isWeak: storage.isWeak, declaringClass: declaringClass))
      }
      inherited = stored.count
    }
    cache.withLock { $0[ObjectIdentifier(containerClass)] = fields }
    return fields
  }

  /// The fields of each class asked, which never change: classes are never unloaded.
  private static let cache = Protected<[ObjectIdentifier: [LazyField]]>([:])
}

/// What reflection reads of a `@Lazy` or `@WeakLazy` property's storage type.
internal protocol _LazyStorage {
  /// The type the property resolves.
  static var valueType: Any.Type { get }
  static var isWeak: Bool { get }
  /// What the property at `offset` in `container` holds, read under its slot lock.
  static func value(in container: AnyObject, at offset: Int) -> Any?
}

/// `containerClass` and its superclasses, nearest first: the order rules are searched in.
package func ancestry(of containerClass: AnyClass) -> [AnyClass] {
  Array(sequence(first: containerClass, next: _getSuperclass))
}
