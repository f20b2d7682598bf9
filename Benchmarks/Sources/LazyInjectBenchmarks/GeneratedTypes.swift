import LazyInject
import Swinject

// Registries with many keys need many types: these are built at run time by nesting two generic
// types, one level per bit of the key's index.

enum Zero<Inner> {}
enum One<Inner> {}
final class KeyContainer<Inner> {}

/// A distinct type for each `index`.
func generatedType(_ index: Int) -> Any.Type {
  var type: Any.Type = Never.self
  var rest = index
  repeat {
    type = rest & 1 == 1 ? wrapOne(type) : wrapZero(type)
    rest >>= 1
  } while rest > 0
  return type
}

private func wrapZero(_ inner: Any.Type) -> Any.Type {
  func wrap<Inner>(_: Inner.Type) -> Any.Type { Zero<Inner>.self }
  return wrap(inner)
}

private func wrapOne(_ inner: Any.Type) -> Any.Type {
  func wrap<Inner>(_: Inner.Type) -> Any.Type { One<Inner>.self }
  return wrap(inner)
}

/// A distinct container class for each `index`.
func generatedContainer(_ index: Int) -> AnyObject.Type {
  func container<Inner>(_: Inner.Type) -> AnyObject.Type { KeyContainer<Inner>.self }
  return container(generatedType(index))
}

/// A small, seeded generator, so that every run registers the same keys.
struct SeededRandom: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// `count` random (property type, container class) keys; the same on every run.
func randomKeys(_ count: Int) -> [(property: Any.Type, container: AnyObject.Type)] {
  var random = SeededRandom(seed: 42)
  return (0..<count).map { _ in
    (
      generatedType(Int.random(in: 0..<1 << 20, using: &random)),
      generatedContainer(Int.random(in: 0..<64, using: &random))
    )
  }
}

/// Registers an initializer for each key.
func register(
  _ keys: [(property: Any.Type, container: AnyObject.Type)], into registry: InitializerRegistry
) {
  registry.duplicateRegistrationHandler = { _ in }
  for key in keys {
    func open<Property>(_: Property.Type) {
      func openContainer<Container: AnyObject>(_: Container.Type) {
        registry.register(Property.self, in: Container.self) { _ in fatalError("never resolved") }
      }
      openContainer(key.container)
    }
    open(key.property)
  }
}

/// Registers a factory for each key's property type into a Swinject container.
func register(_ keys: [(property: Any.Type, container: AnyObject.Type)], into container: Container)
{
  for key in keys {
    func open<Property>(_: Property.Type) {
      container.register(Property.self) { _ in fatalError("never resolved") }
    }
    open(key.property)
  }
}
