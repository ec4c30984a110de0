/** The body of an upload went over its signed byte limit; nothing was stored. */
export class UploadTooLargeError extends Error {
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(`Upload is larger than ${maxBytes} bytes`);
    this.name = 'UploadTooLargeError';
    this.maxBytes = maxBytes;
  }
}

/** The upload had no bytes; nothing was stored. */
export class EmptyUploadError extends Error {
  constructor() {
    super('Upload body is empty');
    this.name = 'EmptyUploadError';
  }
}

/** Something was already uploaded under this key (a signed URL takes one upload); nothing changed. */
export class UploadExistsError extends Error {
  constructor() {
    super('Upload already received');
    this.name = 'UploadExistsError';
  }
}
