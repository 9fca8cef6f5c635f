// The viewers' broker of a hall (docs/MQTT.md "Viewers"): Aedes (npm `aedes`, an MQTT
// broker) serving MQTT over WebSockets to the viewer pages, fed by the hall's Mosquitto
// through a bridge that forwards the public topics only. Nothing private ever reaches it.
//
//   node server.mjs CONFIG.json
//
// CONFIG (written by `mjtable hall broker-config`): {"hall", "websockets": {"host", "port"},
// "bridge": {"host", "port", "username", "password"}, "max_connections", "read": [filters]}
// - only the bridge (on its own loopback listener, with its password) may publish;
// - a viewer may subscribe to the filters of "read" (one table or `+`), nothing else: any
//   other subscription is refused (SUBACK 0x80);
// - the WebSocket listener takes at most max_connections clients.
import fs from 'node:fs'
import net from 'node:net'
import http from 'node:http'
import crypto from 'node:crypto'
import { Aedes } from 'aedes'
import { WebSocketServer, createWebSocketStream } from 'ws'

async function main (argv) {
  if (argv.length !== 1) {
    console.error('usage: node server.mjs CONFIG.json')
    return 2
  }
  const config = JSON.parse(fs.readFileSync(argv[0], 'utf8'))
  const read = config.read.map((f) => f.split('/'))
  const secret = Buffer.from(config.bridge.password, 'utf8')

  const broker = await Aedes.createBroker({ id: `mjtable-viewers-${config.hall}` })
  broker.authenticate = (client, username, password, done) => {
    if (!client.conn.bridge) return done(null, true) // viewers: anonymous, read-only
    const given = Buffer.from(password || '', 'utf8')
    const ok = username === config.bridge.username && given.length === secret.length &&
      crypto.timingSafeEqual(given, secret)
    done(ok ? null : Object.assign(new Error('bad bridge credentials'), { returnCode: 4 }), ok)
  }
  broker.authorizePublish = (client, packet, done) => {
    done(client && client.conn.bridge ? null : new Error('viewers do not publish'))
  }
  broker.authorizeSubscribe = (client, sub, done) => {
    if (client.conn.bridge || allowed(read, sub.topic)) return done(null, sub)
    done(null, null) // refused: SUBACK 0x80, nothing delivered
  }

  const bridge = net.createServer((socket) => {
    socket.bridge = true
    broker.handle(socket)
  })
  bridge.listen(config.bridge.port, config.bridge.host)

  const web = http.createServer((req, res) => {
    res.writeHead(404)
    res.end()
  })
  web.maxConnections = config.max_connections
  const wss = new WebSocketServer({ server: web, handleProtocols: (protocols) => protocols.has('mqtt') ? 'mqtt' : false })
  wss.on('connection', (ws, req) => {
    const stream = createWebSocketStream(ws)
    stream.on('error', () => stream.destroy())
    broker.handle(stream, req)
  })
  web.listen(config.websockets.port, config.websockets.host, () => {
    console.log(`viewers' broker for hall ${config.hall}: MQTT over WebSockets on ` +
      `${config.websockets.host}:${web.address().port}, bridge on ` +
      `${config.bridge.host}:${bridge.address().port}`)
  })
  const stop = () => {
    wss.close()
    web.close()
    bridge.close()
    broker.close(() => process.exit(0))
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
  return 0
}

// does the subscription `topic` ask only for what one of the `read` filters allows?
function allowed (read, topic) {
  const asked = topic.split('/')
  return read.some((f) => f.length === asked.length &&
    f.every((level, i) => level === asked[i] || (level === '+' && asked[i] !== '#')))
}

const code = await main(process.argv.slice(2))
if (code) process.exit(code)
