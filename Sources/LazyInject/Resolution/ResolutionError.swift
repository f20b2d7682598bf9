/// Why the registry could not build a value.
///
/// ``InitializerRegistry/resolve(_:for:)`` throws it; a `@Lazy` property stops the program with
/// its ``description``. The message says what was asked, where LazyInject looked, what is
/// registered, and how to fix it:
///
/// ```text
/// LazyInject could not build MyApp.ResourceLoader for MyApp.SettingsViewController.resourceLoader.
/// Searched, in order: MyApp.SettingsViewController, MyApp.ViewController, then the root default.
/// MyApp.ResourceLoader is registered only for:
///   - MyApp.UsersViewController (LoaderInitializers.swift:12)
/// MyApp.ResourceLoader is not DefaultInitializable, so init() was not tried.
/// Fix: register an initializer for this container or one of its superclasses (leave out `in:`
/// for a root default, for every container). For a main-actor type (in an app target with
/// default main-actor isolation, every type not marked nonisolated):
///   registry.registerOnMainActor(MyApp.ResourceLoader.self, in: MyApp.SettingsViewController.self) { sender in ... }
/// For a nonisolated type, built on whichever thread reads the property:
///   registry.register(MyApp.ResourceLoader.self, in: MyApp.SettingsViewController.self) { sender in ... }
/// ```
public struct ResolutionError: Error, CustomStringConvertible {
  /// The kinds of failure.
  ///
  /// New capabilities bring new kinds (``requiresLoad`` came with async initializers): a `switch`
  /// over a kind needs a `default` case.
  public enum Kind: Sendable, Hashable {
    /// No registration matched and the type is not ``DefaultInitializable``.
    case missingInitializer
    /// Building the value needs the value itself, directly or through other initializers.
    case dependencyCycle
    /// A `.weak` registration built a value that is not a class instance.
    case weakScopeRequiresClass
    /// An initializer threw an error of its own; see ``underlyingError``.
    case initializerFailed
    /// A main-actor initializer was asked for its value off the main actor.
    case requiresMainActor
    /// An object or classes have `@Lazy` or `@WeakLazy` properties that cannot be resolved, or
    /// that are always nil while a related type is registered: what the checks of
    /// `LazyInjectChecks` report (`validate`).
    case unresolvableProperties
    /// A check could not run, or could not take effect: classes whose stored properties cannot
    /// be listed (no reflection metadata), a module with no class or no such property, an
    /// excluded class that is not the module's, a platform without type records.
    case cannotCheck
    /// A property rule's key path leads to a property of another object than the one resolved,
    /// as `\UsersViewController.session.$token` does.
    case invalidPropertyKeyPath
    /// A forward's target resolved to a value that is not of the forwarded type; see
    /// ``InitializerRegistry/forward(_:to:fileID:line:)``.
    case forwardTargetMismatch
    /// A synchronous read, or ``InitializerRegistry/resolve(_:for:)``, met an async rule whose
    /// scope keeps no instance yet: ``InitializerRegistry/prepare()`` or
    /// ``LazyProjection/load()`` builds it (see <doc:AsyncInitializers>).
    case requiresLoad
  }

  /// What went wrong.
  public let kind: Kind

  /// The full, multi-line message.
  public let description: String

  /// The error an initializer threw, for ``Kind/initializerFailed``.
  public let underlyingError: (any Error)?

  package init(_ kind: Kind, _ description: String, underlyingError: (any Error)? = nil) {
    self.kind = kind
    self.description = description
    self.underlyingError = underlyingError
  }

  /// The error for a rule whose key path leads to a property of another object than the one
  /// being resolved (see `PropertyTarget`).
  package static func invalidPropertyKeyPath(
    rule: InitializerRegistry.Rule, containerClass: AnyClass, ownerClass: AnyClass
  ) -> ResolutionError {
    let root = rule.containerTypeName ?? "?"
    return ResolutionError(
      .invalidPropertyKeyPath,
      """
      LazyInject cannot use the rule \(rule): its key path, rooted at \(root), leads to a @Lazy \
      property of another object (a \(typeName(ownerClass))), not of the \
      \(typeName(containerClass)) whose property is being resolved.
      Fix: register the key path to a @Lazy property of \(root) itself, as \
      \\\(root).$auditLog; for a property of the other object, root the key path at its class.
      """)
  }
}

// The messages of failed resolutions: what was asked, the chain that needed it, what is
// registered, and the fix. Built from the resolution's frames; the checks of LazyInjectChecks
// render the same facts with the helpers marked `package`.

extension ResolutionError {
  /// The error for a property no layer and no `init()` can build: the classes searched, and the
  /// registrations for the property's type of every registry searched.
  ///
  /// Out of line: its temporaries would otherwise take stack in every level of a deep chain.
  ///
  /// Only the registrations are copied under each lock; their rules are built and sorted after
  /// unlocking, so that a miss never holds up other threads' resolutions.
  @inline(never) static func missingInitializer(
    _ property: Any.Type, in containerClass: AnyClass, frame: ResolutionFrame,
    registries: [InitializerRegistry]
  ) -> ResolutionError {
    let name = typeName(property)
    let container = typeName(containerClass)
    let propertyPath = frame.slot == nil ? nil : frame.step.container
    let layers = InitializerRegistry.layerCount(of: registries)
    let rules = registries.flatMap(\.registrations).filter { $0.propertyType == property }
    let registered = rules.map(\.rule).sorted { first, second in
      // The innermost layer first, then by container name.
      if first.overrideDepth != second.overrideDepth {
        return first.overrideDepth > second.overrideDepth
      }
      return (first.containerTypeName ?? "") < (second.containerTypeName ?? "")
    }
    let nearMisses = InitializerRegistry.nearMisses(for: property, in: registries)
    let inLayers =
      layers == 0
      ? "" : " in each of \(layers) override layer\(layers == 1 ? "" : "s") and the registry"
    var lines = ["LazyInject could not build \(name) for \(propertyPath ?? container)."]
    lines += neededBy(ResolutionFrame.chain)
    lines.append(
      "Searched, in order\(inLayers): \(ancestry(of: containerClass).map(typeName).joined(separator: ", ")), then the root default."
    )
    if registered.isEmpty {
      lines.append(
        "\(name) has no registration in this registry\(layers == 0 ? "" : " or its layers").")
    } else {
      lines.append("\(name) is registered only for:")
      lines += registered.map { rule in
        let subject =
          rule.isPropertyRule
          ? "\(rule.property(of: rule.containerTypeName ?? "?")) (that property only)"
          : rule.containerTypeName ?? "the root default"
        let forward = rule.forwardTargetTypeName.map { ", forwarded to \($0)" } ?? ""
        let layer = rule.overrideDepth == 0 ? "" : ", override layer \(rule.overrideDepth)"
        return "  - \(subject)\(forward)\(layer) (\(rule.site))"
      }
    }
    if !nearMisses.isEmpty {
      lines.append(
        "Did you mean one of these? They are registered for a related type, which a \(name) property does not use:"
      )
      lines += nearMisses.map { "  - \($0)" }
      lines.append(
        "A property uses only the registrations of its own declared type (and, for T?, of T): register \(name).self, or declare the property with the registered type."
      )
    }
    lines += [
      "\(name) is not DefaultInitializable, so init() was not tried.",
      "Fix: register an initializer for this container or one of its superclasses (leave out `in:` for a root default, for every container). For a main-actor type (in an app target with default main-actor isolation, every type not marked nonisolated):",
      "  registry.registerOnMainActor(\(name).self, in: \(container).self) { sender in ... }",
      "For a nonisolated type, built on whichever thread reads the property:",
      "  registry.register(\(name).self, in: \(container).self) { sender in ... }",
    ]
    if let propertyPath, registered.contains(where: \.isPropertyRule),
      let dot = propertyPath.lastIndex(of: ".")
    {
      lines.append("For this property alone:")
      lines.append(
        "  registry.register(\\\(propertyPath[..<dot]).$\(propertyPath[dot...].dropFirst())) { sender in ... }"
      )
    }
    return ResolutionError(.missingInitializer, lines.joined(separator: "\n"))
  }

  static func dependencyCycle(
    steps: [String], isDepthLimit: Bool = false, acrossThreads: Bool = false
  ) -> ResolutionError {
    let limit =
      "\nResolution went \(steps.count - 1) initializers deep (the limit is \(ResolutionFrame.maximumDepth), or less where the thread's stack is nearly used up), which only a cycle does."
    return ResolutionError(
      .dependencyCycle,
      (acrossThreads
        ? "LazyInject found a dependency cycle across threads: each waits for a value another is building."
        : "LazyInject found a dependency cycle:") + "\n  " + steps.joined(separator: "\n  -> ")
        + (isDepthLimit ? limit : "")
        + "\nFix: break the cycle, for example by building one of these values without reading the other in its initializer."
    )
  }

  static func requiresMainActor(frame: ResolutionFrame) -> Self {
    return ResolutionError(
      .requiresMainActor,
      """
      LazyInject cannot build \(typeName(frame.property)) for \(frame.step.container) off the \
      main actor: its initializer is registered with registerOnMainActor, so the property must \
      be read on the main actor, even once an instance its scope keeps was built there.
      Fix: read it from main-actor code (a @MainActor type or function), or register an \
      initializer that runs anywhere with register(_:in:) (for a nonisolated type).
      """)
  }

  /// The error of a synchronous resolution of `what` (`"T in C.property"`) that met the async
  /// `registration` with no instance kept; or without one, of a synchronous read of a property
  /// that a `load()` is building: a synchronous read never waits for an async initializer.
  static func requiresLoad(for what: String, rule registration: AnyRegistration?)
    -> ResolutionError
  {
    let why =
      registration.map { "its rule is async (\($0.rule)) and its scope keeps no instance yet" }
      ?? "load() is building it with an async initializer, which a synchronous read never waits for"
    return ResolutionError(
      .requiresLoad,
      "LazyInject cannot build \(what) synchronously: \(why).\nFix: prepare it at launch, and"
        + " again after each reset of its scope, such as at login (`try"
        + " await InitializerRegistry.shared.prepare()`, for a rule with no sender whose scope"
        + " keeps its instance), or load the property from async code before reading it (`try"
        + " await object.$property.load()`).")
  }

  static func weakScopeRequiresClass(rule: InitializerRegistry.Rule, valueType: Any.Type) -> Self {
    ResolutionError(
      .weakScopeRequiresClass,
      """
      LazyInject cannot keep \(typeName(valueType)) weakly: it is not a class instance.
      Registration: \(rule)
      Fix: register it with scope .singleton or .unique, or build a class instance.
      """)
  }

  /// The error of `rule`'s initializer, which threw `error`, in the resolutions under way.
  static func initializerFailed(_ error: any Error, rule: InitializerRegistry.Rule) -> Self {
    let lines =
      ["LazyInject's initializer \(rule) threw: \(error)"] + neededBy(ResolutionFrame.chain)
    return Self(.initializerFailed, lines.joined(separator: "\n"), underlyingError: error)
  }

  static func forwardTargetMismatch(
    forwarded: Any.Type, target: Any.Type, value: Any, site: String, chain: [ResolutionFrame]
  ) -> ResolutionError {
    let forwardedName = typeName(forwarded)
    let targetName = typeName(target)
    let what = chain.last.map { " for \($0.step.container)" } ?? ""
    var lines = [
      "LazyInject cannot forward \(forwardedName) to \(targetName)\(what): the \(targetName) it resolved, a \(typeName(type(of: value))), is not a \(forwardedName)."
    ]
    lines += neededBy(chain) + ["Forward registered at \(site)."]
    if !isOnMainActor() {
      lines.append(
        "Off the main actor, a conformance isolated to the main actor (in an app target with default main-actor isolation, that of every type not marked nonisolated) does not count: mark the type, or its conformance, nonisolated."
      )
    }
    lines.append(
      "Fix: make \(targetName) conform to \(forwardedName), or forward \(forwardedName) to a type that does."
    )
    return ResolutionError(.forwardTargetMismatch, lines.joined(separator: "\n"))
  }

  /// `"Needed by: A in X -> B in Y."` for a resolution nested in others.
  private static func neededBy(_ chain: [ResolutionFrame]) -> [String] {
    chain.count < 2
      ? [] : ["Needed by: " + chain.dropLast().map(\.step.summary).joined(separator: " -> ") + "."]
  }
}
