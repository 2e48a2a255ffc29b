// The parts of electron-log 5 that main/core/log/file-log.ts builds its logger from (published
// under the package's "./*" export, without types of their own); the shapes are the package's
// own (src/core/Logger.js, src/node/NodeExternalApi.js, src/node/transports/file/index.js),
// typed with its src/index.d.ts.
declare module 'electron-log/src/core/Logger.js' {
  import type { LogLevel, MainTransports, NodeLogger } from 'electron-log';

  type TransportFactory = (logger: unknown, dependencies: object) => unknown;

  /** A logger with only the transports it is given (electron-log/node adds ipc and remote). */
  export type PartsLogger = Omit<NodeLogger, 'transports'> & {
    transports: Pick<MainTransports, 'console' | 'file'>;
  };

  const Logger: new (options: {
    dependencies: object;
    logId: string;
    levels?: LogLevel[];
    transportFactories: { console: TransportFactory; file: TransportFactory };
    variables?: Record<string, unknown>;
  }) => PartsLogger;
  export default Logger;
}

declare module 'electron-log/src/node/NodeExternalApi.js' {
  /** Where electron-log looks up the app's name and folders, for plain Node. */
  const NodeExternalApi: new () => object;
  export default NodeExternalApi;
}

declare module 'electron-log/src/node/transports/console.js' {
  const consoleTransportFactory: (logger: unknown, dependencies: object) => unknown;
  export default consoleTransportFactory;
}

declare module 'electron-log/src/node/transports/file/index.js' {
  const fileTransportFactory: (logger: unknown, dependencies: object) => unknown;
  export default fileTransportFactory;
}

declare module 'electron-log/src/node/transports/file/FileRegistry.js' {
  import type { EventEmitter } from 'node:events';

  /** The open files of the file transports that share it; emits 'error' (error, file). */
  const FileRegistry: new () => EventEmitter;
  export default FileRegistry;
}
