@_spi(Reflection) import Swift
import _LazyInjectShims

/// A stored `@Lazy` or `@WeakLazy` property of a class, found by reflection of its class's
/// metadata: nothing of an object is read to find it.
internal struct LazyField {
  /// The name as declared, as in `"auditLog"`.
  let name: String
  /// The offset of the property's slot in an object of the class.
  let offset: Int
  /// `Lazy<Value>` or `WeakLazy<Value>`.
  let storageType: Any.Type
  /// The type the property resolves: `Value` for `@Lazy`, `Value?` for `@WeakLazy`.
  let valueType: Any.Type
  /// Whether it is a `@WeakLazy` property.
  let isWeak: Bool
  /// The class that declares it: the class itself or a superclass.
  let declaringClass: AnyClass

  /// The `@Lazy` and `@WeakLazy` properties of `containerClass` and its superclasses,
  /// superclasses' first, in declaration order; nil if reflection cannot list the stored
  /// properties of the class or of a superclass.
  static func fields(of containerClass: AnyClass) -> [LazyField]? {
    var fields: [LazyField] = []
    var inherited = 0  // How many stored properties the superclasses declare.
    for declaringClass in RuleTable.ancestry(of: containerClass).reversed() {
      guard let stored = StoredField.fields(of: declaringClass) else { return nil }
      for field in stored.dropFirst(inherited) {
        guard let storage = field.type as? any _LazyStorage.Type else { continue }
        fields.append(
          LazyField(
            name: field.name, offset: field.offset, storageType: field.type,
            valueType: storage.valueType, isWeak: storage.isWeak, declaringClass: declaringClass))
      }
      inherited = stored.count
    }
    return fields
  }

  /// Whether the `@Lazy` property holds a value in `container`, an object of the class.
  ///
  /// Neither empty, in flight, nor a capture of override layers. A `@WeakLazy` property's value
  /// may go away at any time: it never counts as resolved.
  func isResolved(in container: AnyObject) -> Bool {
    guard !isWeak else { return false }
    let object = UnsafeRawPointer(Unmanaged.passUnretained(container).toOpaque())
    SlotLock.lock(object)
    defer { SlotLock.unlock(object) }
    let raw = (object + offset).load(as: UInt.self)
    let marker = _lazyinject_in_flight_marker()
    guard raw != 0, raw != marker else { return false }
    return !(_LazyObjectBox.isBox(raw) && _LazyObjectBox.isCapture(raw, marker: marker))
  }
}

/// A stored property of a class, as its metadata describes it.
internal struct StoredField {
  /// The name as declared, without the underscore of a property wrapper's storage: `@Lazy var
  /// loader` is stored as `_loader`, named `"loader"` here.
  let name: String
  let offset: Int
  let type: Any.Type

  /// The stored properties of `containerClass` and its superclasses; nil if reflection cannot
  /// list them (the reflection metadata of the class or of a superclass was left out, in which
  /// case the standard library would list none, as for a class with no stored property).
  static func fields(of containerClass: AnyClass) -> [StoredField]? {
    guard #available(macOS 10.15.4, iOS 13.4, tvOS 13.4, watchOS 6.2, *),
      RuleTable.ancestry(of: containerClass).allSatisfy({
        _lazyinject_has_field_records(unsafeBitCast($0, to: UnsafeRawPointer.self)) != 0
      })
    else { return nil }
    var fields: [StoredField] = []
    // `.classType` (1 << 0; the static property is not concurrency-safe) lists the superclasses'
    // stored properties too.
    let isListed = _forEachField(of: containerClass, options: _EachFieldOptions(rawValue: 1 << 0)) {
      field, offset, type, _ in
      let storageName = String(cString: field)
      let name = storageName.hasPrefix("_") ? String(storageName.dropFirst()) : storageName
      fields.append(StoredField(name: name, offset: offset, type: type))
      return true
    }
    return isListed ? fields : nil
  }
}

/// What reflection reads of a `@Lazy` or `@WeakLazy` property's storage type.
internal protocol _LazyStorage {
  /// The type the property resolves.
  static var valueType: Any.Type { get }
  static var isWeak: Bool { get }
}

extension Lazy: _LazyStorage {
  static var valueType: Any.Type { Value.self }
  static var isWeak: Bool { false }
}

extension WeakLazy: _LazyStorage {
  static var valueType: Any.Type { Value?.self }
  static var isWeak: Bool { true }
}
