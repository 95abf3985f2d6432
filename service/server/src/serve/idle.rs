//! Connections that go quiet are closed: [`incoming`] wraps each accepted connection so that a read
//! or a write that waits longer than `--idle-timeout` fails, and hyper then drops the connection.
//!
//! This is what closes a connection that was opened and abandoned, or that sent part of its first
//! bytes and stopped: before hyper knows which HTTP version it speaks, nothing else times it out.
//! A live HTTP/2 client is never idle that long, since it answers the server's keep-alive pings
//! (`--keepalive-interval`, which must be shorter); a client that trickles its request one byte at
//! a time is closed by hyper's 30 s limit on an HTTP/1 request head, or on HTTP/2 by the pings it
//! does not answer.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio_io_timeout::TimeoutStream;
use tokio_stream::{Stream, StreamExt};
use tonic::transport::server::{Connected, TcpConnectInfo, TcpIncoming};

/// An accepted connection whose reads and writes fail after waiting the idle timeout.
#[derive(Debug)]
pub struct IdleLimited(Pin<Box<TimeoutStream<TcpStream>>>);

/// Accepted connections, with Nagle's algorithm off (small gRPC frames would otherwise wait for
/// the peer's delayed acknowledgement, some 40 ms a call), and closed once idle for `idle` (none:
/// never).
pub fn incoming(listener: TcpListener, idle: Option<Duration>) -> impl Stream<Item = io::Result<IdleLimited>> {
    TcpIncoming::from(listener).with_nodelay(Some(true)).map(move |accepted| {
        accepted.map(|connection| {
            let mut limited = TimeoutStream::new(connection);
            limited.set_read_timeout(idle);
            limited.set_write_timeout(idle);
            IdleLimited(Box::pin(limited))
        })
    })
}

impl Connected for IdleLimited {
    type ConnectInfo = TcpConnectInfo;

    fn connect_info(&self) -> TcpConnectInfo {
        self.0.get_ref().connect_info()
    }
}

impl AsyncRead for IdleLimited {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        self.0.as_mut().poll_read(cx, buf)
    }
}

impl AsyncWrite for IdleLimited {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        self.0.as_mut().poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.0.as_mut().poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.0.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.0.as_mut().poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.0.as_mut().poll_shutdown(cx)
    }
}
