import LazyInject

extension InitializerRegistry {
  /// An instance that a reset of its scope released and that something still holds: an object
  /// that should have died with a session, found by ``heldInstances(afterResetOf:searching:)``.
  public struct HeldInstance: Sendable, CustomStringConvertible {
    /// The instance's type, as in `"MyApp.UserSession"`.
    public let typeName: String
    /// The rule that built it.
    public let rule: Rule
    /// Where the objects searched hold it, as in `"AppCoordinator.settings.session"` or
    /// `"Analytics (kept by its scope).session"`; empty if none of them does.
    public let holders: [String]

    /// The instance, its rule and its holders, in a sentence.
    public var description: String {
      let held =
        holders.isEmpty
        ? "held by none of the objects searched: an app's own reference, a value an initializer"
          + " captured in a closure, or a result of resolve(_:for:)"
        : "held by " + holders.joined(separator: ", ")
      return "\(typeName) (built by \(rule)), released by a reset of its scope, is still alive:"
        + " \(held)."
    }
  }

  /// The instances that resets of `scope` released and that are still alive, with what holds
  /// them, as far as LazyInject can see.
  ///
  /// A reset releases the instances from every `@Lazy` and `@WeakLazy` property that its rules
  /// filled; what still holds one after it is out of LazyInject's reach: an app's own strong
  /// reference, a property assigned by hand, a value another initializer captured, a result of
  /// ``InitializerRegistry/resolve(_:for:)``. To name the holders, this searches the stored
  /// properties (`@Lazy` ones included) of the instances every scope keeps and of `roots`, such
  /// as the app's coordinator, to a depth of 8.
  ///
  /// ```swift
  /// import LazyInject
  /// import LazyInjectChecks
  /// import Testing
  ///
  /// extension InitializerRegistry.Scope {
  ///   static let session = Self.custom("session")
  /// }
  ///
  /// final class UserSession {}
  ///
  /// final class AppCoordinator {
  ///   @Lazy var session: UserSession
  ///   func logOut() { InitializerRegistry.shared.reset(.session) }
  /// }
  ///
  /// @MainActor @Test func loggingOutReleasesTheSession() {
  ///   let app = AppCoordinator()
  ///   _ = app.session
  ///   app.logOut()
  ///   #expect(InitializerRegistry.shared.heldInstances(afterResetOf: .session, searching: [app])
  ///     .isEmpty)
  /// }
  /// ```
  ///
  /// An instance is reported whatever the type of the properties that held it: its class, an
  /// optional (a `UserSession?` rule, whose `nil` is the logged-out state) or a protocol (`any
  /// Session`), as long as the instance is a class instance; a struct or an enum has no identity
  /// to follow. Inside ``withOverrides(_:operation:)``, it reports what resets in the innermost
  /// layer released, as ``reset(_:)`` resets that layer's instances.
  public func heldInstances(afterResetOf scope: Scope, searching roots: [AnyObject] = [])
    -> [HeldInstance]
  {
    var (released, kept): ([(AnyObject, Rule)], [Any]) = ([], [])
    for target in changeTargets {
      target.withState { state in
        released += state.instances.released(of: scope)
        kept += state.instances.keptInstances
      }
    }
    guard !released.isEmpty else { return [] }
    var search = HolderSearch(targets: Set(released.map { ObjectIdentifier($0.0) }))
    for root in roots { search.visit(root, path: LazyInject.typeName(type(of: root)), depth: 0) }
    for instance in kept {
      search.visit(
        instance, path: LazyInject.typeName(type(of: instance)) + " (kept by its scope)", depth: 0)
    }
    return released.map { instance, rule in
      HeldInstance(
        typeName: LazyInject.typeName(type(of: instance)), rule: rule,
        holders: search.holders[ObjectIdentifier(instance), default: []])
    }
  }
}

/// A walk of stored properties from some objects, noting the paths that reach `targets`.
private struct HolderSearch {
  let targets: Set<ObjectIdentifier>
  var holders: [ObjectIdentifier: [String]] = [:]
  private var visited: Set<ObjectIdentifier> = []

  init(targets: Set<ObjectIdentifier>) { self.targets = targets }

  mutating func visit(_ value: Any, path: String, depth: Int) {
    guard depth < 8 else { return }
    let mirror = Mirror(reflecting: value)
    if type(of: value) is AnyObject.Type {
      let object = value as AnyObject
      guard visited.insert(ObjectIdentifier(object)).inserted else { return }
      let lazyFields = (try? LazyField.fields(of: type(of: object))) ?? []
      for field in lazyFields {
        if let held = field.value(in: object) {
          child(held, path: path + "." + field.displayName, depth: depth)
        }
      }
      let storage = Set(lazyFields.compactMap { $0.name.map { "_" + $0 } })
      var current: Mirror? = mirror
      while let level = current {
        for (label, held) in level.children where !storage.contains(label ?? "") {
          child(held, path: path + "." + (label ?? "?"), depth: depth)
        }
        current = level.superclassMirror
      }
    } else {
      for (index, (label, held)) in mirror.children.enumerated() {
        let step = mirror.displayStyle == .optional ? "" : label.map { "." + $0 } ?? "[\(index)]"
        child(held, path: path + step, depth: depth)
      }
    }
  }

  /// Notes `value` if it is a target, and searches it.
  private mutating func child(_ value: Any, path: String, depth: Int) {
    if type(of: value) is AnyObject.Type, targets.contains(ObjectIdentifier(value as AnyObject)) {
      holders[ObjectIdentifier(value as AnyObject), default: []].append(path)
    }
    visit(value, path: path, depth: depth + 1)
  }
}
