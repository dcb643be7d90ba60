package demoserver

import (
	"log"
	"net"
	"sync"
)

// connLimit is a listener that holds at most cap(slots) accepted
// connections open at once: Accept waits for one to close before it
// takes the next from the kernel's queue, so stalled clients cannot hold
// more descriptors than that.
type connLimit struct {
	net.Listener
	log   *log.Logger
	slots chan struct{} // one element per open connection

	closeOnce sync.Once
	closed    chan struct{}
}

func limitConns(ln net.Listener, n int, lg *log.Logger) *connLimit {
	return &connLimit{Listener: ln, log: lg, slots: make(chan struct{}, n), closed: make(chan struct{})}
}

// Accept waits for a free slot, then for a connection.
func (l *connLimit) Accept() (net.Conn, error) {
	select {
	case l.slots <- struct{}{}:
	default:
		l.log.Printf("%d connections are open (-max-conns): the next waits until one closes", cap(l.slots))
		select {
		case l.slots <- struct{}{}:
		case <-l.closed:
			return nil, net.ErrClosed
		}
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &limitedConn{Conn: c, free: func() { <-l.slots }}, nil
}

// Close closes the listener, and ends an Accept waiting for a slot.
func (l *connLimit) Close() error {
	l.closeOnce.Do(func() { close(l.closed) })
	return l.Listener.Close()
}

// open is how many accepted connections are open.
func (l *connLimit) open() int { return len(l.slots) }

// A limitedConn gives its slot back when it is first closed.
type limitedConn struct {
	net.Conn
	once sync.Once
	free func()
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.free)
	return err
}

// CloseWrite half-closes a TCP connection, as net/http does before it
// closes one whose request body it refused, so that the answer arrives.
func (c *limitedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}
