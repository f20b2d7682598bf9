import Foundation
import PackagePlugin

/// Generates an app-scale executable's services, holders, rules and conformances at build time,
/// from the `app-scale.json` in the target's folder, so that the repository keeps the generator
/// and a two-number configuration per executable, not tens of thousands of generated lines.
@main
struct GenerateAppScale: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    // The target's folder, as its main.swift's: `Target.directoryURL` needs tools version 6.1.
    guard
      let main = target.sourceModule?.sourceFiles.first(where: {
        $0.url.lastPathComponent == "main.swift"
      })
    else {
      throw GenerationError(message: "\(target.name) has no main.swift next to its app-scale.json")
    }
    let configuration = main.url.deletingLastPathComponent()
      .appendingPathComponent("app-scale.json")
    let output = context.pluginWorkDirectoryURL.appendingPathComponent("AppScale.swift")
    return [
      .buildCommand(
        displayName: "Generating the app-scale module of \(target.name)",
        executable: try context.tool(named: "AppScaleGenerator").url,
        arguments: [configuration.path, target.name, output.path],
        inputFiles: [configuration], outputFiles: [output])
    ]
  }
}

/// Why the plugin generated nothing.
struct GenerationError: Error, CustomStringConvertible {
  let message: String
  var description: String { message }
}
