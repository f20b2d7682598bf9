@_spi(Reflection) import Swift
import _LazyInjectShims

/// A stored `@Lazy` property of a class, found by reflection of its class's metadata: nothing of
/// an object is read to find it.
internal struct LazyField {
  /// The name as declared, as in `"auditLog"`.
  let name: String
  /// The offset of the property's slot in an object of the class.
  let offset: Int
  /// `Lazy<Value>`.
  let storageType: Any.Type
  /// `Value`, the property's type.
  let valueType: Any.Type

  /// The `@Lazy` properties of `containerClass` and its superclasses, in declaration order; nil
  /// if reflection cannot list the class's stored properties.
  static func fields(of containerClass: AnyClass) -> [LazyField]? {
    StoredField.fields(of: containerClass)?.compactMap { field in
      (field.type as? any _LazyStorage.Type).map {
        LazyField(
          name: field.name, offset: field.offset, storageType: field.type, valueType: $0.valueType)
      }
    }
  }

  /// Whether the property holds a value in `container`, an object of the class: neither empty,
  /// in flight, nor a capture of override layers.
  func isResolved(in container: AnyObject) -> Bool {
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
  /// list them (the class's reflection metadata was left out).
  static func fields(of containerClass: AnyClass) -> [StoredField]? {
    guard #available(macOS 10.15.4, iOS 13.4, tvOS 13.4, watchOS 6.2, *) else { return nil }
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

/// What reflection reads of a `@Lazy` property's storage type.
internal protocol _LazyStorage {
  static var valueType: Any.Type { get }
}

extension Lazy: _LazyStorage {
  static var valueType: Any.Type { Value.self }
}
