import sharp from 'sharp';

/** A plain image of one colour, for tests of what takes images (logos). */
export const solidImage = (width: number, height: number, format: 'png' | 'jpeg' | 'webp' = 'png'): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background: '#3366cc' } })
    [format]()
    .toBuffer();
