package dev.flow.bench.load;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.LineBasedFrameDecoder;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The hand-written Netty 4.2 baseline of the load driver (mode {@code netty}): what a performance-minded
 * user writes instead of blocking code, answering the same requests with the same bytes as the bench's
 * line echo, the HTTP sample ({@code GET /}) and the RESP sample ({@code PING}, {@code SET}, {@code
 * GET}). NIO transport, one acceptor thread and 2 event loops (Flow's servers have 2 workers; the
 * machine has 2 cores), pooled buffers ({@link PooledByteBufAllocator}), {@code TCP_NODELAY}, and a
 * {@link FlushConsolidationHandler} first in every pipeline: the replies to the requests of one read
 * go out in one write, as the samples' {@code sendWhenDry} does.
 *
 * <p>Thread model: each connection's handlers run on its event loop; the RESP store is a {@link
 * ConcurrentHashMap} shared by all connections, as the sample's {@code Store} is.
 */
final class NettyServer implements AutoCloseable {

    private final EventLoopGroup boss;
    private final EventLoopGroup loops;
    private final Channel channel;
    private final AtomicLong failures;

    private NettyServer(EventLoopGroup boss, EventLoopGroup loops, Channel channel, AtomicLong failures) {
        this.boss = boss;
        this.loops = loops;
        this.channel = channel;
        this.failures = failures;
    }

    /**
     * Starts a server of {@code protocol} ({@code echo}, {@code http} or {@code redis}) on {@code bind} with
     * {@code eventLoops} event loops; handler failures other than I/O errors are counted in {@code failures}.
     */
    static NettyServer start(InetSocketAddress bind, String protocol, int eventLoops, int maxLineLength,
            AtomicLong failures) throws IOException {
        if (!protocol.equals("echo") && !protocol.equals("http") && !protocol.equals("redis")) {
            throw new IllegalArgumentException("mode netty: protocol " + protocol + " (expected: echo, http or redis)");
        }
        if (eventLoops < 1) {
            throw new IllegalArgumentException("eventLoops: " + eventLoops + " (expected: > 0)");
        }
        EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        EventLoopGroup loops = new MultiThreadIoEventLoopGroup(eventLoops, NioIoHandler.newFactory());
        ConcurrentHashMap<String, byte[]> store = new ConcurrentHashMap<>();
        ServerBootstrap b = new ServerBootstrap()
                .group(boss, loops)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 4096)
                .option(ChannelOption.SO_REUSEADDR, true)
                .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .childOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ChannelPipeline p = ch.pipeline();
                        p.addLast(new FlushConsolidationHandler());
                        switch (protocol) {
                            case "echo":
                                p.addLast(new LineBasedFrameDecoder(maxLineLength), new Echo(failures));
                                break;
                            case "http":
                                p.addLast(new HttpServerCodec(), new Http(failures));
                                break;
                            default:
                                p.addLast(new RespDecoder(), new Resp(store, failures));
                        }
                    }
                });
        try {
            Channel ch = b.bind(bind).sync().channel();
            return new NettyServer(boss, loops, ch, failures);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            boss.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            loops.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            throw new IOException("interrupted while binding " + bind, e);
        } catch (RuntimeException e) {
            boss.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            loops.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            throw e;
        }
    }

    /** The bound port. */
    int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        boss.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** Counts a failure that is not an I/O error (a peer's reset is the end of a run) and closes the connection. */
    private abstract static class Handler extends ChannelInboundHandlerAdapter {
        private final AtomicLong failures;

        Handler(AtomicLong failures) {
            this.failures = failures;
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (!(cause instanceof IOException)) {
                failures.incrementAndGet();
                System.err.println("connection failed: " + cause);
            }
            ctx.close();
        }
    }

    /** Line echo: each line back with {@code \n}. */
    private static final class Echo extends Handler {
        private static final ByteBuf NEWLINE = Unpooled.unreleasableBuffer(
                Unpooled.directBuffer(1).writeByte('\n')).asReadOnly();

        Echo(AtomicLong failures) {
            super(failures);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.write(msg);
            ctx.writeAndFlush(NEWLINE.duplicate());
        }
    }

    /** HTTP/1.1: {@code GET /} answered as the HTTP sample answers it, 404 for other paths; keep-alive. */
    private static final class Http extends Handler {
        private static final byte[] HELLO = "Hello from Flow\n".getBytes(StandardCharsets.UTF_8);
        private static final String TEXT = "text/plain; charset=utf-8";

        Http(AtomicLong failures) {
            super(failures);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (!(msg instanceof HttpRequest)) {
                ReferenceCountUtil.release(msg); // the (empty) content of a GET
                return;
            }
            HttpRequest req = (HttpRequest) msg;
            ReferenceCountUtil.release(msg);
            boolean keepAlive = HttpUtil.isKeepAlive(req);
            String uri = req.uri();
            int q = uri.indexOf('?');
            String path = q < 0 ? uri : uri.substring(0, q);
            FullHttpResponse res;
            if (path.equals("/")) {
                res = response(HttpResponseStatus.OK, ctx.alloc().buffer(HELLO.length).writeBytes(HELLO));
            } else {
                byte[] body = ("no such path: " + path + "\n").getBytes(StandardCharsets.UTF_8);
                res = response(HttpResponseStatus.NOT_FOUND, ctx.alloc().buffer(body.length).writeBytes(body));
            }
            if (!keepAlive) {
                res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
                ctx.writeAndFlush(res).addListener(ChannelFutureListener.CLOSE);
            } else {
                ctx.writeAndFlush(res);
            }
        }

        private static FullHttpResponse response(HttpResponseStatus status, ByteBuf body) {
            FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body, false);
            res.headers().set(HttpHeaderNames.CONTENT_TYPE, TEXT)
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
            return res;
        }
    }

    /** RESP2 multibulk commands ({@code *N}, then N bulk strings) decoded into argument lists. */
    private static final class RespDecoder extends ByteToMessageDecoder {
        private static final int MAX_ARGS = 1024;
        private static final int MAX_BULK = 512 * 1024;

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            for (;;) {
                int start = in.readerIndex();
                List<byte[]> args = command(in);
                if (args == null) {
                    in.readerIndex(start);
                    return;
                }
                out.add(args);
            }
        }

        /** One whole command, or {@code null} if it is not all buffered yet. */
        private static List<byte[]> command(ByteBuf in) {
            long n = number(in, '*');
            if (n == Long.MIN_VALUE) {
                return null;
            }
            if (n < 0 || n > MAX_ARGS) {
                throw new IllegalArgumentException("multibulk length: " + n + " (expected: 0.." + MAX_ARGS + ")");
            }
            List<byte[]> args = new ArrayList<>((int) n);
            for (int i = 0; i < n; i++) {
                long len = number(in, '$');
                if (len == Long.MIN_VALUE) {
                    return null;
                }
                if (len < 0 || len > MAX_BULK) {
                    throw new IllegalArgumentException("bulk length: " + len + " (expected: 0.." + MAX_BULK + ")");
                }
                if (in.readableBytes() < len + 2) {
                    return null;
                }
                byte[] arg = new byte[(int) len];
                in.readBytes(arg);
                in.skipBytes(2);
                args.add(arg);
            }
            return args;
        }

        /** {@code <type><digits>\r\n}: the number, or {@link Long#MIN_VALUE} if the line is not all buffered. */
        private static long number(ByteBuf in, char type) {
            int eol = in.indexOf(in.readerIndex(), in.writerIndex(), (byte) '\n');
            if (eol < 0) {
                return Long.MIN_VALUE;
            }
            if (in.readByte() != type) {
                throw new IllegalArgumentException("expected '" + type + "' (only multibulk commands are served)");
            }
            long v = 0;
            boolean negative = false;
            for (int i = in.readerIndex(); i < eol - 1; i++) {
                byte c = in.getByte(i);
                if (c == '-' && i == in.readerIndex()) {
                    negative = true;
                } else if (c >= '0' && c <= '9' && v < Integer.MAX_VALUE) {
                    v = v * 10 + (c - '0');
                } else {
                    throw new IllegalArgumentException("bad number in RESP header");
                }
            }
            in.readerIndex(eol + 1);
            return negative ? -v : v;
        }
    }

    /** RESP commands {@code PING}, {@code SET key value}, {@code GET key}, answered as the RESP sample answers them. */
    private static final class Resp extends Handler {
        private static final ByteBuf PONG = constant("+PONG\r\n");
        private static final ByteBuf OK = constant("+OK\r\n");
        private static final ByteBuf NIL = constant("$-1\r\n");

        private final ConcurrentHashMap<String, byte[]> store;

        Resp(ConcurrentHashMap<String, byte[]> store, AtomicLong failures) {
            super(failures);
            this.store = store;
        }

        private static ByteBuf constant(String s) {
            return Unpooled.unreleasableBuffer(Unpooled.directBuffer(s.length())
                    .writeBytes(s.getBytes(StandardCharsets.US_ASCII))).asReadOnly();
        }

        @Override
        @SuppressWarnings("unchecked")
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            List<byte[]> args = (List<byte[]>) msg;
            if (args.isEmpty()) {
                return;
            }
            String name = new String(args.get(0), StandardCharsets.US_ASCII).toUpperCase(Locale.ROOT);
            switch (name) {
                case "PING":
                    ctx.writeAndFlush(args.size() == 1 ? PONG.duplicate() : bulk(ctx, args.get(1)));
                    return;
                case "SET":
                    if (args.size() == 3) {
                        store.put(new String(args.get(1), StandardCharsets.UTF_8), args.get(2));
                        ctx.writeAndFlush(OK.duplicate());
                        return;
                    }
                    break;
                case "GET":
                    if (args.size() == 2) {
                        byte[] v = store.get(new String(args.get(1), StandardCharsets.UTF_8));
                        ctx.writeAndFlush(v == null ? NIL.duplicate() : bulk(ctx, v));
                        return;
                    }
                    break;
                default:
                    ctx.writeAndFlush(error(ctx, "ERR unknown command '" + name.toLowerCase(Locale.ROOT) + "'"));
                    return;
            }
            ctx.writeAndFlush(error(ctx, "ERR wrong number of arguments for '" + name.toLowerCase(Locale.ROOT)
                    + "' command"));
        }

        private static ByteBuf bulk(ChannelHandlerContext ctx, byte[] v) {
            ByteBuf b = ctx.alloc().buffer(v.length + 16);
            b.writeByte('$').writeCharSequence(Integer.toString(v.length), StandardCharsets.US_ASCII);
            return b.writeByte('\r').writeByte('\n').writeBytes(v).writeByte('\r').writeByte('\n');
        }

        private static ByteBuf error(ChannelHandlerContext ctx, String message) {
            ByteBuf b = ctx.alloc().buffer(message.length() + 3);
            b.writeByte('-').writeCharSequence(message, StandardCharsets.US_ASCII);
            return b.writeByte('\r').writeByte('\n');
        }
    }
}
