import Foundation
import PackagePlugin

/// Generates the 1,000 screens of the GeneratedScreens module at build time, so that the
/// repository keeps the generator, not 8,000 generated lines.
@main
struct GenerateScreens: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    let output = context.pluginWorkDirectoryURL.appendingPathComponent("Screens.swift")
    return [
      .buildCommand(
        displayName: "Generating 1,000 screens",
        executable: try context.tool(named: "ScreenGenerator").url,
        arguments: [output.path], outputFiles: [output])
    ]
  }
}
