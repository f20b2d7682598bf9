import LazyInject
import _LazyInjectScan

/// The classes a module declares, found from the type metadata records of the images loaded in
/// the process (`ModuleScan.c`), with no object made.
///
/// Linux is tested; Darwin reads the same records from each image's `__swift5_types` sections, as
/// the runtime and Swift Testing's discovery do, and is not run by CI.
internal struct ModuleScan {
  /// The module's name, as `import` spells it.
  let module: String
  /// The module's non-generic classes, by name: reports and graphs do not depend on the order
  /// of the records, which the compiler and linker choose.
  private(set) var classes: [AnyClass] = []
  /// The module's generic classes, as `MyApp.Cache`: they have no metadata until specialized.
  ///
  /// Sorted. A class nested in a generic type is one too, named with the types around it
  /// (`MyApp.Outer.Cache`), except when nested in an extension or a private context: named from
  /// there (`MyApp.Cache`), as the records name an extended type only in mangled form.
  private(set) var genericClasses: [String] = []
  /// The module's non-generic classes whose metadata the scan could not get (no metadata
  /// accessor in the record, or none returned), named as generic classes are, sorted.
  private(set) var classesWithoutMetadata: [String] = []
  /// Whether the platform keeps records the scan can read.
  private(set) var isSupported = true

  init(module: String) {
    self.module = module
    let found = Found()
    isSupported =
      module.withCString { name in
        _lazyinject_scan_classes(name, Found.record, Unmanaged.passUnretained(found).toOpaque())
      } != 0
    classes = found.classes.map { (typeName($0), $0) }.sorted { $0.0 < $1.0 }.map(\.1)
    genericClasses = found.genericClasses.map { "\(module).\($0)" }.sorted()
    classesWithoutMetadata = found.classesWithoutMetadata.map { "\(module).\($0)" }.sorted()
  }

  /// The modules that declare a class, sorted: what a message about a wrong module name lists.
  static var moduleNames: [String] {
    let found = Found()
    _ = _lazyinject_scan_classes(nil, Found.record, Unmanaged.passUnretained(found).toOpaque())
    return found.modules.sorted()
  }

  /// What the C scan reports, collected through its context pointer.
  private final class Found {
    var classes: [AnyClass] = []
    var genericClasses: [String] = []
    var classesWithoutMetadata: [String] = []
    var modules: Set<String> = []

    static let record: _lazyinject_scan_body = { kind, value, name, context in
      let found = Unmanaged<Found>.fromOpaque(context!).takeUnretainedValue()
      switch kind {
      case LAZYINJECT_FOUND_CLASS:
        found.classes.append(unsafeBitCast(value!, to: AnyClass.self))
      case LAZYINJECT_FOUND_GENERIC_CLASS:
        found.genericClasses.append(String(cString: name))
      case LAZYINJECT_FOUND_CLASS_WITHOUT_METADATA:
        found.classesWithoutMetadata.append(String(cString: name))
      default:
        found.modules.insert(String(cString: name))
      }
    }
  }
}
