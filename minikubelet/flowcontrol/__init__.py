"""Rate limiting and back-off, from client-go's util/flowcontrol in Go."""
