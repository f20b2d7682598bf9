import LazyInject
import Testing
import _LazyInjectScan

// Whether a container class observes injections is read from the binary's conformance records
// (`_lazyinject_conforms`), not asked of the Swift runtime, which answers a class that does not
// conform by searching every record of the process. The records must give the runtime's answer
// for every shape of conformance, or defer to the runtime where they cannot tell.

private final class Part: DefaultInitializable { init() {} }

/// Records the names of the properties it was told of.
private class Recorder {
  var injected: [String] = []

  func record(_ name: String) { injected.append(name) }
}

/// Declares the property, and does not observe.
private class Base: Recorder {
  @Lazy var part: Part
}

/// Observes, though the class that declares the property does not.
private final class ObservingSubclass: Base, InjectionObserving {
  func didInject(_ value: Any, intoPropertyNamed name: String) { record(name) }
}

/// Declares the property and observes.
private class ObservingBase: Recorder, InjectionObserving {
  @Lazy var part: Part

  func didInject(_ value: Any, intoPropertyNamed name: String) { record(name) }
}

/// Observes through its superclass.
private final class InheritingSubclass: ObservingBase {}

/// A generic class that observes for every type argument.
private final class GenericObserver<Tag>: Recorder, InjectionObserving {
  @Lazy var part: Part

  func didInject(_ value: Any, intoPropertyNamed name: String) { record(name) }
}

/// A generic class that observes only when its type argument is `Int`.
private final class ConditionalObserver<Tag>: Recorder {
  @Lazy var part: Part
}

extension ConditionalObserver: InjectionObserving where Tag == Int {
  func didInject(_ value: Any, intoPropertyNamed name: String) { record(name) }
}

private struct Plain {}

/// What the records say of `type` and `InjectionObserving`: 1, 0, or -1 (ask the runtime).
private func recordsSay(_ type: Any.Type) -> Int32 {
  _lazyinject_conforms(
    unsafeBitCast(type, to: UnsafeRawPointer.self),
    unsafeBitCast((any InjectionObserving).self, to: UnsafeRawPointer.self))
}

struct ConformanceRecordsTests {
  @Test func subclassThatObservesIsToldThoughItsSuperclassDeclaresTheProperty() {
    let container = ObservingSubclass()
    _ = container.part
    #expect(container.injected == ["part"])
  }

  @Test func subclassOfAnObservingClassIsTold() {
    let container = InheritingSubclass()
    _ = container.part
    #expect(container.injected == ["part"])
  }

  @Test func genericClassThatObservesIsToldForEveryTypeArgument() {
    let ofInt = GenericObserver<Int>()
    let ofString = GenericObserver<String>()
    _ = ofInt.part
    _ = ofString.part
    #expect(ofInt.injected == ["part"])
    #expect(ofString.injected == ["part"])
  }

  @Test func conditionalConformanceIsToldOnlyWhereItsConditionHolds() {
    let ofInt = ConditionalObserver<Int>()
    let ofString = ConditionalObserver<String>()
    _ = ofInt.part
    _ = ofString.part
    #expect(ofInt.injected == ["part"])
    #expect(ofString.injected == [])
  }

  @Test func recordsGiveTheRuntimesAnswerOrDeferToIt() {
    let types: [Any.Type] = [
      Base.self, ObservingSubclass.self, ObservingBase.self, InheritingSubclass.self,
      GenericObserver<Int>.self, Recorder.self, Part.self, Plain.self, Int.self, Int?.self,
      (Int, String).self, ((Int) -> Void).self, (any InjectionObserving).self, AnyObject.self,
    ]
    for type in types {
      let runtime: Int32 = type is any InjectionObserving.Type ? 1 : 0
      #expect(recordsSay(type) == runtime, "\(type)")
    }
    // A conditional conformance: only the runtime can tell which type arguments meet it.
    #expect(recordsSay(ConditionalObserver<Int>.self) == -1)
    #expect(recordsSay(ConditionalObserver<String>.self) == -1)
  }
}
