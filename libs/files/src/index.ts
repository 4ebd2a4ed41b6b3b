export * from './file-store.port';
export { DataDirFileStore } from './data-dir/data-dir-file-store';
export { GridFsFileStore, FILES_BUCKET } from './gridfs/gridfs-file-store';
export { renameDurably } from './data-dir/durable-rename';
