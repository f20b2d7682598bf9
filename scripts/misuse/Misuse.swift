// Misuses a newcomer writes, each with the compiler error that must name its fix. A line that
// ends with an `expect:` comment must get an error containing its text (scripts/check-misuse).
import LazyInject

final class ResourceLoader {}

final class InitialValue {
  @Lazy var loader: ResourceLoader = ResourceLoader()  // expect: @Lazy takes no initial value: remove it and register an initializer for the type (InitializerRegistry.shared.register), or use 'lazy var' to build the value here
}

final class LetProperty {  // expect: has no initializers
  @Lazy let loader: ResourceLoader  // expect: property wrapper can only be applied to a 'var'
}

final class StaticProperty {
  @Lazy static var loader: ResourceLoader  // expect: @Lazy is only available on instance properties of classes ('var', not 'let' or 'static var'; not in a struct or enum)
}

struct InAStruct {
  @Lazy var loader: ResourceLoader  // expect: @Lazy is only available on instance properties of classes ('var', not 'let' or 'static var'; not in a struct or enum)
}

final class WeakInitialValue {
  @WeakLazy var loader: ResourceLoader? = ResourceLoader()  // expect: @WeakLazy takes no initial value: remove it and register an initializer for the type (InitializerRegistry.shared.register), or assign the value after the object is made
}

struct WeakInAStruct {
  @WeakLazy var loader: ResourceLoader?  // expect: @WeakLazy is only available on instance properties of classes ('var', not 'let' or 'static var'; not in a struct or enum)
}

func projectionOutsideAClass(_ lazy: Lazy<ResourceLoader>) {
  _ = lazy.projectedValue  // expect: @Lazy is only available on instance properties of classes
}

final class Catalog {
  static func load() async -> Catalog { Catalog() }
}

func asyncInitializerOnTheMainActorVerb() {
  InitializerRegistry.shared.registerOnMainActor(Catalog.self) { _ in await Catalog.load() }  // expect: an async initializer is registered with register(_:scope:_:)
}
