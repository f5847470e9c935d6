import ConfabServer
@main struct ConfabServerCommand { static func main() { print("confab-server: not yet") } }
