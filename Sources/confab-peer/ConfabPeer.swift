@main struct ConfabPeer { static func main() { print("confab-peer: under construction") } }
