import Foundation
import PortalApp

exit(Commands.run(Array(CommandLine.arguments.dropFirst())))
