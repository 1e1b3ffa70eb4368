// The umbrella module apps import: the model, rendering, presets and playback.
@_exported import HapticsCore
@_exported import HapticsRender
@_exported import HapticsPresets
@_exported import HapticsPlayback
