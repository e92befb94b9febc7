import { useState } from 'react'
import Cropper, { type Area } from 'react-easy-crop'

/**
 * The crop step of a class image (react-easy-crop, loaded only when a picture is chosen): drag or use the arrow
 * keys to move, the slider or the wheel to zoom. Reports the kept area in percent of the picture; the server
 * crops (uploads.server.ts). Its stylesheet comes with the app's (styles.css) — the library's own injection
 * would need the CSP nonce.
 */
export default function ImageCropper(props: {
  src: string
  aspect: number
  onAreaChange: (area: Area) => void
}) {
  const [crop, setCrop] = useState({ x: 0, y: 0 })
  const [zoom, setZoom] = useState(1)
  return (
    <div>
      <div
        className="relative h-56 w-full overflow-hidden rounded-xl bg-slate-800 sm:h-72"
        data-testid="image-cropper"
      >
        <Cropper
          image={props.src}
          aspect={props.aspect}
          crop={crop}
          zoom={zoom}
          onCropChange={setCrop}
          onZoomChange={setZoom}
          onCropComplete={(area) => props.onAreaChange(area)}
          disableAutomaticStylesInjection
          keyboardStep={10}
          cropperProps={{ role: 'group', 'aria-label': '切り抜く範囲（矢印キーで動かせます）' }}
        />
      </div>
      <label className="mt-3 flex items-center gap-3 text-sm">
        <span className="shrink-0 font-bold">拡大</span>
        <input
          type="range"
          min={1}
          max={3}
          step={0.05}
          value={zoom}
          onChange={(e) => setZoom(Number(e.target.value))}
          className="w-full accent-purple-dark"
          data-testid="image-zoom"
        />
      </label>
    </div>
  )
}
