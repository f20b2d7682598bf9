import _LazyInjectScan

// Linked modules: the modules a package declares once and that every program linking the package
// installs, found in the binary's conformance records (`_lazyinject_each_conformer`).

/// A module that installs itself into ``InitializerRegistry/shared`` in every program that links
/// the code declaring it: a feature package declares its rules once, and the app lists nothing.
///
/// ```swift
/// // In the Feed package:
/// public struct FeedInitializers: LinkedModule {
///   public init() {}
///   public func register(in registry: InitializerRegistry) {
///     registry.register(RequestManager.self, scope: .singleton) { _ in RequestManager() }
///   }
/// }
/// ```
///
/// ``InitializerRegistry/shared`` installs every linked module as it installs the modules of
/// ``AutomaticModuleInstallation``: exactly once, on the main actor, before its first use of any
/// kind. The linked modules come first, in the order of their names, then the app's automatic
/// modules, so that the app's rules win over its packages', and anything registered explicitly
/// wins over both. A package that the program does not link has no module in it, so nothing of
/// it is installed. ``InitializerRegistry/description`` lists the linked modules installed, and
/// each rule names its module, with the Swift module that declares it (`Feed.FeedInitializers`).
///
/// The modules are found by the conformance records that the compiler emits for every
/// conformance, which the linker keeps even with dead stripping: one pass over each loaded
/// image's records, at the first use of ``InitializerRegistry/shared``. A library loaded later
/// (`dlopen`) is not read then: call ``InitializerRegistry/installLinkedModules()`` once it is
/// loaded. A generic type cannot be made without its type arguments, so it is not installed.
/// The whole-app check (`validate(classesIn:)` of `LazyInjectChecks`, on
/// ``InitializerRegistry/shared``) fails on a linked module that is not installed, naming it and
/// the fix: the check of the module that declares a generic one, and every check for one in a
/// library loaded later.
///
/// Declare the type `public`: in an optimized build, the compiler drops the conformance of an
/// internal type that no code names, and the module with it, while a debug build (and its tests)
/// keeps it. Declare it in a package, or in an app target with default main-actor isolation (its
/// conformance is then isolated to the main actor): `init()` and `register(in:)` run on the main
/// actor either way.
///
/// SwiftPM links every target of a package dependency as object files, so a linked module is in
/// the binary even when no code names it, and the conformance records survive dead stripping
/// (the compiler marks them used). A prebuilt static library (`.a`) is different: the linker
/// loads only the archive members that resolve a symbol, so link it with `-force_load` (Apple)
/// or `--whole-archive` (Linux), or reference a symbol of the module's file.
public protocol LinkedModule: InitializerModule {
  /// Creates the module to install.
  init()
}

extension InitializerRegistry {
  /// Installs the linked modules that this registry has not installed yet: for ``shared``, those
  /// of the libraries loaded since its first use (with `dlopen`); for any other registry, every
  /// linked module of the program.
  ///
  /// ```swift
  /// // Once `dlopen` has loaded a library that declares linked modules:
  /// InitializerRegistry.shared.installLinkedModules()
  /// ```
  ///
  /// Installed as ``install(_:)`` installs modules, in the order of their names.
  @MainActor public func installLinkedModules() {
    installNewLinkedModules()
  }

  /// Installs the linked modules that this registry has not installed yet.
  ///
  /// Runs on the main actor, where a linked module's `init()` may be isolated.
  internal func installNewLinkedModules() {
    let known = withState { $0.linkedModules.recordsRead }
    let found = LinkedModuleRecords(from: known)
    let modules = found.installable.sorted { $0.name < $1.name }
    withState { state in
      state.linkedModules.recordsRead = max(state.linkedModules.recordsRead, found.count)
      state.linkedModules.installed += modules.map(\.name)
      state.linkedModules.notInstallable += found.generic
    }
    install(modules.map { $0.type.init() })
  }

  /// What a registry knows of the program's linked modules.
  package struct LinkedModules {
    /// How many conformance records of `LinkedModule` it has read.
    package var recordsRead = 0
    /// The names of the modules it installed, in order.
    package var installed: [String] = []
    /// The names of the generic ones among those it read.
    package var notInstallable: [String] = []
  }

  /// What this registry knows of the program's linked modules.
  package var linkedModules: LinkedModules { withState { $0.linkedModules } }
}

/// Has the first reading of the conformance records note every protocol that LazyInject asks
/// about, so that one pass over each image's records serves them all.
internal func watchConformances() {
  let protocols: [Any.Type] = [
    (any LinkedModule).self, (any AutomaticModuleInstallation).self,
    (any InjectionObserving).self, (any _LazyStorage).self, (any _WeakLazyStorage).self,
  ]
  for existential in protocols {
    _lazyinject_watch(metadataAddress(of: existential))
  }
}

/// The conformances to ``LinkedModule`` that the binary's records list, from the `first`th on.
package struct LinkedModuleRecords {
  /// A linked module that can be installed: its type and its name, with its Swift module.
  package struct Module {
    let type: any LinkedModule.Type
    package let name: String
  }

  package private(set) var installable: [Module] = []
  /// The names of the generic ones.
  package private(set) var generic: [String] = []
  /// How many records there are, from the first one.
  private(set) var count = 0

  package init(from first: Int) {
    guard _lazyinject_conformances_are_readable() != 0 else { return }
    let protocolType = metadataAddress(of: (any LinkedModule).self)
    count = withUnsafeMutablePointer(to: &self) { found in
      _lazyinject_each_conformer(
        protocolType, first,
        { metadata, table, name, module, context in
          let found = context!.assumingMemoryBound(to: LinkedModuleRecords.self)
          let name = String(cString: module) + "." + String(cString: name)
          guard let metadata, let table else {
            found.pointee.generic.append(name)
            return
          }
          let type = existentialMetatype(
            metadata: metadata, witnessTable: table, as: (any LinkedModule.Type).self)
          found.pointee.installable.append(Module(type: type, name: name))
        }, found)
    }
  }
}
