; Included by electron-builder's NSIS script (nsis.include). The right-click entries are
; written per user by the app (main/core/integration/windows.ts), so uninstalling removes them
; too. An update runs the old uninstaller first: then they stay, the new version keeps them.
!macro customUnInstall
  ${ifNot} ${isUpdated}
    DeleteRegKey HKCU "Software\Classes\*\shell\Trayshare"
    DeleteRegKey HKCU "Software\Classes\Directory\shell\Trayshare"
    Delete "$APPDATA\Microsoft\Windows\SendTo\Trayshare.lnk"
  ${endIf}
!macroend
