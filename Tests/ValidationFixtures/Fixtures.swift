// Classes that `validate(classesIn:)` and `dependencyGraph(classesIn:)` read from this module's
// type records. Every initializer but LedgerScreen's traps: a check that made an object, or built
// a value, would stop the test run. A test makes a LedgerScreen on purpose, after its checks.
import LazyInject

/// A dependency no fixture registers.
public final class Audit {
  /// Traps.
  public init() { fatalError("validation constructed an Audit") }
}

/// Built with `init()`, but never by a check.
public final class Clock: DefaultInitializable {
  /// Traps.
  public init() { fatalError("validation constructed a Clock") }
}

/// What a tracker does.
public protocol Tracking: AnyObject {}

/// Conforms to `Tracking`: registering it but not `any Tracking` is a near miss.
public final class SharedAnalytics: Tracking {
  /// Traps.
  public init() { fatalError("validation constructed a SharedAnalytics") }
}

/// A base screen: its property is inherited by every subclass, which may have its own rules.
open class BaseScreen {
  /// Inherited by every subclass.
  @Lazy public var audit: Audit

  /// Traps.
  public init() { fatalError("validation constructed a BaseScreen") }
}

/// A subclass: its own properties, and the inherited `audit`.
public final class AdminScreen: BaseScreen {
  /// `DefaultInitializable`: always resolvable.
  @Lazy public var clock: Clock
  /// Optional: nil when no rule serves it.
  @Lazy public var tracker: (any Tracking)?
  /// Weak: nil when no rule serves it.
  @WeakLazy public var delegate: (any Tracking)?
  /// A class with a `@Lazy` property of its own, which a graph follows.
  @Lazy public var reports: ReportService
}

/// A dependency with a `@Lazy` property of its own.
public final class ReportService {
  /// Never registered by default.
  @Lazy public var audit: Audit

  /// Traps.
  public init() { fatalError("validation constructed a ReportService") }
}

/// Generic: no metadata until specialized, so a module scan skips it.
public final class Cache<Key> {
  /// Checked only in a specialization.
  @Lazy public var audit: Audit

  /// Traps.
  public init() { fatalError("validation constructed a Cache") }
}

/// Two `@Lazy` properties of one type: which one a rule's key path names needs an object.
public final class LedgerScreen {
  /// One of two.
  @Lazy public var auditLog: Audit
  /// The other.
  @Lazy public var debugLog: Audit

  /// Makes an object, which tells rules their properties: the one initializer that does not trap.
  public init() {}
}

/// One `@Lazy` property of its type: a rule's key path can only name it.
public final class ReceiptScreen {
  /// The only one of its type.
  @Lazy public var auditLog: Audit

  /// Traps.
  public init() { fatalError("validation constructed a ReceiptScreen") }
}

/// Generic, with a class nested in it: a module scan skips both, naming the nested one with its
/// enclosing type.
public final class Shelf<Item> {
  /// In a generic context: no metadata until `Shelf` is specialized.
  public final class Row {
    /// Checked only in a specialization.
    @Lazy public var audit: Audit

    /// Traps.
    public init() { fatalError("validation constructed a Shelf.Row") }
  }

  /// Traps.
  public init() { fatalError("validation constructed a Shelf") }
}
