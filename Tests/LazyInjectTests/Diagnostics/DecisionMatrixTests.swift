import LazyInject
import LazyInjectChecks
import Testing

// What `explain`, `validate(classes:)` and the graph say a property gets must be what a read
// builds: one case per kind of rule. Each case has container and value types of its own, so that
// the cases run in parallel on the shared registry.

private final class Value: Sendable {
  let source: String
  init(_ source: String) { self.source = source }
}

private final class Built: DefaultInitializable, Sendable {
  init() {}
}

private protocol Service: AnyObject, Sendable {}
private final class ServiceImpl: Service {}

private final class TypeRuleScreen { @Lazy var value: Value }
private final class PropertyRuleScreen { @Lazy var value: Value }
private class BaseScreen { @Lazy var value: Value }
private final class SubScreen: BaseScreen {}
private final class RootDefaultValue: Sendable {}
private final class RootDefaultScreen { @Lazy var value: RootDefaultValue }
private final class LayerScreen { @Lazy var value: Value }
private final class InForceScreen { @Lazy var value: Value }
private final class ForwardScreen { @Lazy var service: any Service }
private final class InitScreen { @Lazy var built: Built }
private final class OptionalValue: Sendable {}
private final class OptionalScreen { @Lazy var value: OptionalValue? }
private final class Nothing: Sendable {}
private final class NothingScreen { @Lazy var nothing: Nothing }

struct DecisionMatrixTests {
  private let registry = InitializerRegistry.shared

  /// What the three checks say of `containerClass`'s property `name` agrees with a read: the
  /// `explanation`'s result names the site of `rule`, the rule the read used (if any), the graph
  /// labels the property's edge `label`, and `validate(classes:)` passes if `serves`.
  private func expectAgreement(
    _ containerClass: AnyClass, _ name: String, explanation: String,
    read rule: InitializerRegistry.Rule?, result: String, label: String, serves: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let results = explanation.split(separator: "\n").filter { $0.hasPrefix("Result") }
    let resultLine = results.first { $0.contains(".\(name): ") } ?? results.last ?? ""
    #expect(resultLine.contains(result), "\(explanation)", sourceLocation: sourceLocation)
    if let rule, case .registration(let fileID, let line) = rule.source {
      #expect(
        resultLine.contains("\(fileID):\(line)"), "\(explanation)", sourceLocation: sourceLocation)
    }
    let graph = registry.dependencyGraph(classes: [containerClass]).dot
    #expect(graph.contains("\(name): \(label)"), "\(graph)", sourceLocation: sourceLocation)
    let validated = Result { try registry.validate(classes: [containerClass]) }
    #expect(
      ((try? validated.get()) != nil) == serves, "\(validated)", sourceLocation: sourceLocation)
  }

  @Test func typeRule() {
    registry.register(Value.self, in: TypeRuleScreen.self) { _ in Value("type rule") }
    let screen = TypeRuleScreen()
    #expect(screen.value.source == "type rule")
    expectAgreement(
      TypeRuleScreen.self, "value",
      explanation: registry.explain(Value.self, in: TypeRuleScreen.self),
      read: screen.$value.rule, result: "the registration for LazyInjectTests.TypeRuleScreen",
      label: "in TypeRuleScreen, unique scope")
  }

  @Test func ruleForOneProperty() {
    registry.register(\PropertyRuleScreen.$value) { _ in Value("property rule") }
    let screen = PropertyRuleScreen()
    #expect(screen.value.source == "property rule")
    #expect(screen.$value.rule?.isPropertyRule == true)
    expectAgreement(
      PropertyRuleScreen.self, "value",
      explanation: registry.explain(Value.self, in: PropertyRuleScreen.self),
      read: screen.$value.rule, result: "its property rule", label: "its own rule, unique scope")
  }

  @Test func ruleOfASuperclass() {
    registry.register(Value.self, in: BaseScreen.self) { _ in Value("superclass") }
    let screen = SubScreen()
    #expect(screen.value.source == "superclass")
    expectAgreement(
      SubScreen.self, "value", explanation: registry.explain(Value.self, in: SubScreen.self),
      read: screen.$value.rule, result: "inherited by LazyInjectTests.SubScreen",
      label: "in BaseScreen, unique scope")
  }

  @Test func rootDefault() {
    registry.register(RootDefaultValue.self) { _ in RootDefaultValue() }
    let screen = RootDefaultScreen()
    _ = screen.value
    #expect(screen.$value.rule?.isRootDefault == true)
    expectAgreement(
      RootDefaultScreen.self, "value",
      explanation: registry.explain(RootDefaultValue.self, in: RootDefaultScreen.self),
      read: screen.$value.rule, result: "the root default", label: "root default, unique scope")
  }

  @Test func ruleOfAnOverrideLayer() {
    registry.withOverrides {
      $0.register(Value.self, in: LayerScreen.self) { _ in Value("layer") }
    } operation: {
      let screen = LayerScreen()
      #expect(screen.value.source == "layer")
      expectAgreement(
        LayerScreen.self, "value", explanation: registry.explain(Value.self, in: LayerScreen.self),
        read: screen.$value.rule, result: "the registration for LazyInjectTests.LayerScreen",
        label: "layer 1, in LayerScreen, unique scope")
    }
  }

  @Test func ruleRegisteredWhileALayerIsInForce() {
    registry.withOverrides { _ in
    } operation: {
      registry.register(Value.self, in: InForceScreen.self) { _ in Value("in force") }
      let screen = InForceScreen()
      #expect(screen.value.source == "in force")
      #expect(screen.$value.rule?.overrideDepth == 1)
      expectAgreement(
        InForceScreen.self, "value",
        explanation: registry.explain(Value.self, in: InForceScreen.self),
        read: screen.$value.rule, result: "the registration for LazyInjectTests.InForceScreen",
        label: "layer 1, in InForceScreen, unique scope")
    }
  }

  @Test func forward() {
    registry.register(ServiceImpl.self, in: ForwardScreen.self) { _ in ServiceImpl() }
    registry.forward((any Service).self, in: ForwardScreen.self, to: ServiceImpl.self)
    let screen = ForwardScreen()
    #expect(screen.service is ServiceImpl)
    #expect(screen.$service.rule?.forwardTargetTypeName == "LazyInjectTests.ServiceImpl")
    expectAgreement(
      ForwardScreen.self, "service",
      explanation: registry.explain((any Service).self, in: ForwardScreen.self),
      read: screen.$service.rule, result: "the registration for LazyInjectTests.ForwardScreen",
      label: "in ForwardScreen, forwarded to ServiceImpl")
  }

  @Test func initializerOfADefaultInitializableType() {
    let screen = InitScreen()
    _ = screen.built
    #expect(screen.$built.rule?.isDefaultInitializer == true)
    expectAgreement(
      InitScreen.self, "built", explanation: registry.explain(Built.self, in: InitScreen.self),
      read: nil, result: "built with init()", label: "init()")
  }

  @Test func optionalThatNoRuleServes() {
    let screen = OptionalScreen()
    #expect(screen.value == nil)
    #expect(screen.$value.rule == nil)
    expectAgreement(
      OptionalScreen.self, "value",
      explanation: registry.explain(OptionalValue?.self, in: OptionalScreen.self), read: nil,
      result: "the value is nil", label: "nil, no rule")
  }

  @Test func nothing() {
    #expect(throws: ResolutionError.self) {
      try registry.resolve(Nothing.self, for: NothingScreen())
    }
    expectAgreement(
      NothingScreen.self, "nothing",
      explanation: registry.explain(Nothing.self, in: NothingScreen.self),
      read: nil, result: "failure: no registration", label: "missing", serves: false)
  }
}
