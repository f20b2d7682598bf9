// Modules: groups of registrations, the conditions that install them, and the modules that
// `InitializerRegistry.shared` installs by itself.

/// A group of registrations, installed together: the Swift form of BloodMagic's
/// `lazy_initializer` files.
///
/// Keep one module per file, next to the types it builds:
///
/// ```swift
/// struct LoaderInitializers: InitializerModule {
///   func register(in registry: InitializerRegistry) {
///     registry.registerOnMainActor(ResourceLoader.self, in: UsersViewController.self) { _ in
///       .usersLoader()
///     }
///     registry.register(RequestManager.self, scope: .singleton) { _ in RequestManager() }
///   }
/// }
///
/// InitializerRegistry.shared.install(LoaderInitializers(), NetworkInitializers())
/// ```
///
/// To have modules installed before the first resolution without a call at start-up, list them
/// through ``AutomaticModuleInstallation``.
public protocol InitializerModule {
  /// Adds this module's registrations to `registry`.
  func register(in registry: InitializerRegistry)
}

extension InitializerRegistry {
  /// Installs `modules`, in order; those made with ``InitializerModule/when(_:)`` come last.
  ///
  /// ```swift
  /// registry.install(LoaderInitializers(), NetworkInitializers())
  /// ```
  ///
  /// Each registration remembers the module that made it, which diagnostics name.
  public func install(_ modules: any InitializerModule...) { install(modules) }

  /// Installs `modules`: the unconditional ones in order, then the conditional ones in order, so
  /// that a module switched on by a condition wins.
  internal func install(_ modules: [any InitializerModule]) {
    // `sorted` is stable: each group keeps its order.
    for module in modules.sorted(by: { !($0 is ConditionalModule) && $1 is ConditionalModule }) {
      let conditional = module as? ConditionalModule
      let name = typeName(type(of: conditional?.module ?? module))
      let label = conditional.map { "\(name) when \($0.condition)" } ?? name
      Self.$installing.withValue((label, conditional != nil)) { module.register(in: self) }
    }
  }

  /// The module whose registrations are being made on this task: its name, with its condition if
  /// it has one (diagnostics show it), and whether a condition switched it on (its registrations
  /// then replace others on purpose, so the duplicate-registration handler does not hear of them).
  @TaskLocal static var installing: (name: String, isConditional: Bool)?
}

/// When a module is installed: UI tests, previews and debug builds switch an app to other
/// initializers with no change to its code.
///
/// ```swift
/// InitializerRegistry.shared.install(
///   NetworkInitializers(),
///   MockNetworkInitializers().when(.launchArgument("-ui-testing")),
///   PreviewInitializers().when(.environment("XCODE_RUNNING_FOR_PREVIEWS", equals: "1"))
/// )
/// ```
///
/// The condition is checked when the module is installed. Conditional modules are installed
/// after the unconditional ones of the same `install` (or of the automatic list), so their
/// registrations win (without a duplicate-registration report: that is their purpose);
/// ``InitializerRegistry/description`` and
/// ``InitializerRegistry/explain(_:in:)`` name the module, with its condition, of each rule.
public struct ModuleCondition: Sendable, CustomStringConvertible {
  private let check: @Sendable () -> Bool

  /// How the condition reads in diagnostics: `"launch argument -ui-testing"`.
  public let description: String

  /// Creates a condition that `isMet` decides, described as `description`.
  ///
  /// ```swift
  /// let demoMode = ModuleCondition("demo mode") {
  ///   UserDefaults.standard.bool(forKey: "demoMode")
  /// }
  /// registry.install(NetworkInitializers(), MockNetworkInitializers().when(demoMode))
  /// ```
  public init(_ description: String, isMet: @escaping @Sendable () -> Bool) {
    self.description = description
    check = isMet
  }

  /// Creates a condition: renamed ``init(_:isMet:)``, whose second argument is labeled.
  @available(*, deprecated, renamed: "init(_:isMet:)")
  @_disfavoredOverload
  public init(_ description: String, _ isMet: @escaping @Sendable () -> Bool) {
    self.init(description, isMet: isMet)
  }

  /// Whether the condition holds now.
  public var isMet: Bool { check() }

  /// Met when the process was launched with `argument`, as UI tests launch an app
  /// (`app.launchArguments = ["-ui-testing"]`).
  public static func launchArgument(_ argument: String) -> Self {
    Self("launch argument \(argument)", isMet: { CommandLine.arguments.contains(argument) })
  }

  /// Met when the environment variable `name` is `value`, as for
  /// `.environment("XCODE_RUNNING_FOR_PREVIEWS", equals: "1")` in SwiftUI previews.
  public static func environment(_ name: String, equals value: String) -> Self {
    Self("environment \(name)=\(value)", isMet: { environmentValue(name) == value })
  }

  /// Met when the environment variable is the value: renamed ``environment(_:equals:)``.
  @available(*, deprecated, renamed: "environment(_:equals:)")
  public static func environment(_ name: String, _ value: String) -> Self {
    environment(name, equals: value)
  }

  /// Met in a debug build: one compiled without optimization, with `DEBUG` defined, as SwiftPM
  /// and Xcode build an app's packages in its Debug configuration.
  public static var debugBuild: Self {
    #if DEBUG
      Self("debug build", isMet: { true })
    #else
      Self("debug build", isMet: { false })
    #endif
  }
}

extension InitializerModule {
  /// This module, installed only when `condition` is met.
  ///
  /// ```swift
  /// registry.install(NetworkInitializers(), MockNetworkInitializers().when(.debugBuild))
  /// ```
  public func when(_ condition: ModuleCondition) -> ConditionalModule {
    ConditionalModule(module: self, condition: condition)
  }
}

/// A module installed only when its condition is met; made by ``InitializerModule/when(_:)``.
///
/// Installed after the unconditional modules of the same `install`, so that its registrations
/// win; diagnostics name it with its condition.
public struct ConditionalModule: InitializerModule {
  /// The module to install.
  let module: any InitializerModule

  /// When to install it.
  let condition: ModuleCondition

  /// Adds the module's registrations to `registry` if the condition is met now.
  public func register(in registry: InitializerRegistry) {
    if condition.isMet { module.register(in: registry) }
  }
}

/// Lists the modules that ``InitializerRegistry/shared`` installs by itself, just before it is
/// first used.
///
/// Swift has no `__attribute__((constructor))`: instead, an app declares this conformance once,
/// anywhere in its code, and needs no call in `main`:
///
/// ```swift
/// extension LazyInject.InitializerRegistry: LazyInject.AutomaticModuleInstallation {
///   public static var automaticModules: [any InitializerModule] {
///     [LoaderInitializers(), NetworkInitializers()]
///   }
/// }
/// ```
///
/// The modules are installed exactly once, before the first use of ``InitializerRegistry/shared``
/// of any kind: registering, unregistering, resolving, `validate`, `explain`, `description`,
/// `withOverrides`. So every query sees them, and anything registered explicitly (in a test's
/// set-up or at start-up) comes after them and wins. If several threads touch `shared` first
/// at once, one installs and the others wait for it.
///
/// The protocol is isolated to the main actor: the modules are always installed there, whatever
/// thread first uses ``InitializerRegistry/shared``, so that modules may touch main-actor state.
/// Declare the conformance as above, without `@MainActor` (the protocol has it): a conformance
/// isolated to the main actor is found only where the Swift runtime knows it runs there, which a
/// job of the main queue that another thread drains (Linux) is not.
/// A first use off the main actor hands the installation to the main queue. Async code (the
/// `.overrides` trait, `withOverrides`, `prepare()`, `load()`) awaits it, blocking no thread,
/// however long the main actor is busy. A synchronous first use off the main actor (a read,
/// `resolve`, the synchronous `withOverrides`) waits for it; if the main actor does not run
/// within 10 seconds (its thread is blocked, perhaps waiting for the very thread that waits, or
/// busy), the program stops with a message that names both causes and the fix for each.
///
/// The registry looks the conformance up at run time, so only one module of a program may
/// declare it. An explicit ``InitializerRegistry/install(_:)`` still works alongside.
///
/// Modules only register: a module that resolves, or waits for another thread that uses
/// ``InitializerRegistry/shared``, waits for its own installation, which LazyInject cannot
/// report as a cycle.
@MainActor public protocol AutomaticModuleInstallation {
  /// The modules to install into ``InitializerRegistry/shared`` before its first use.
  static var automaticModules: [any InitializerModule] { get }
}
