import LazyInject
import Testing

// The names messages give types: the runtime's qualified names, read without the casts that
// `String(reflecting:)` makes of a metatype, and without the `(unknown context at $…)` of private
// and local types.

private final class PrivateService {}

private struct Outer {
  struct Inner<Tag> {}
}

struct TypeNameTests {
  @Test func namesAreTheQualifiedNamesStringReflectingGives() {
    let types: [Any.Type] = [
      Int.self, [String: Int].self, Int?.self, ((Int) -> Void).self, (Int, String).self,
      (any Sendable).self, AnyObject.self, TypeNameTests.self,
    ]
    for type in types {
      #expect(typeName(type) == String(reflecting: type))
    }
  }

  @Test func privateAndLocalTypesLoseTheirUnknownContext() {
    final class Local {}
    #expect(String(reflecting: PrivateService.self).contains("unknown context"))
    #expect(typeName(PrivateService.self) == "LazyInjectTests.PrivateService")
    #expect(
      typeName(Outer.Inner<PrivateService>.self)
        == "LazyInjectTests.Outer.Inner<LazyInjectTests.PrivateService>")
    #expect(!typeName(Local.self).contains("unknown context"))
    #expect(typeName(Local.self).hasSuffix("Local"))
  }
}
