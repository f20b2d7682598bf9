import Dispatch

extension InitializerRegistry {
  /// One resolution, as the ``tracer`` receives it.
  public struct ResolutionEvent: Sendable, CustomStringConvertible {
    /// The rule that built or supplied the value.
    public let rule: Rule

    /// The class of the container the value was resolved for.
    public let containerTypeName: String

    /// How many resolutions were under way on the thread around this one: 0 for a property read
    /// by the app, 1 for a value its initializer needed, and so on.
    public let depth: Int

    /// The time the resolution took, initializers of nested values included, in nanoseconds.
    public let durationNanoseconds: UInt64

    /// `"ResourceLoader for UsersViewController by <rule>, depth 0, 1200 ns"`.
    public var description: String {
      "\(rule.propertyTypeName) for \(containerTypeName) by \(rule), depth \(depth),"
        + " \(durationNanoseconds) ns"
    }

    internal init(origin: ValueOrigin, containerClass: AnyClass, depth: Int, start: UInt64) {
      rule = origin.rule
      containerTypeName = typeName(containerClass)
      self.depth = depth
      durationNanoseconds = DispatchTime.now().uptimeNanoseconds - start
    }
  }

  /// Receives every resolution this registry makes, after it completes; nil (the default) turns
  /// tracing off, at no measurable cost.
  ///
  /// While a tracer is set, first reads take the general path, which reports them: do not
  /// measure speed with one set.
  ///
  /// ```swift
  /// InitializerRegistry.shared.tracer = { event in print(event) }
  /// ```
  ///
  /// The tracer runs on the resolving thread, with no lock held. Resolutions served by an override
  /// layer are reported by the registry that was asked.
  public var tracer: (@Sendable (ResolutionEvent) -> Void)? {
    get { withState { $0.tracer } }
    // Fast path reads are not traced: changing the tracer empties the fast path's table. The old
    // tracer, and what it captured, is released after unlocking.
    set { _ = withStateChange { exchange(&$0.tracer, with: newValue) } }
  }
}
