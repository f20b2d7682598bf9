import ConsumerApp
import LazyInject
import LazyInjectChecks
import Testing

/// One line per screen (or other object with `@Lazy` properties) catches a missing registration
/// before users do.
@MainActor
struct ValidationTests {
  @Test func everyScreenCanResolveEveryProperty() {
    let registry = InitializerRegistry.shared
    #expect(throws: Never.self) {
      try registry.validate(UsersViewController())
      try registry.validate(AdminUsersViewController())
      try registry.validate(SettingsViewController())
      try registry.validate(ProfileViewController())
      try registry.validate(ProfileViewModel())
      try registry.validate(ResourceLoader(path: "/"))
    }
  }
}
