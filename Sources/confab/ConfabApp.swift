@main struct ConfabApp { static func main() {} }
