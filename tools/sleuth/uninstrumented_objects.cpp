#include "uninstrumented_objects.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace sleuth::wrapper {
namespace {

std::string record(const UninstrumentedSource &S) { return S.Source + "\t" + S.Reason + "\n"; }

void parseRecords(llvm::StringRef Text, std::vector<UninstrumentedSource> &Out) {
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    Text = Rest;
    auto [Source, Reason] = Line.split('\t');
    if (!Source.empty())
      Out.push_back({Source.str(), Reason.str()});
  }
}

// Whether the section can go into Object: an ELF object that is no LTO object (GCC's keeps its
// code in `.gnu.lto_*` sections and the linker plugin drops the others; Clang's is bitcode).
bool takesSection(const std::string &Object) {
  auto File = llvm::object::ObjectFile::createObjectFile(Object);
  if (!File) {
    llvm::consumeError(File.takeError());
    return false;
  }
  const llvm::object::ObjectFile &O = *File->getBinary();
  if (!llvm::isa<llvm::object::ELFObjectFileBase>(O))
    return false;
  for (const llvm::object::SectionRef &Section : O.sections()) {
    llvm::Expected<llvm::StringRef> Name = Section.getName();
    if (!Name) {
      llvm::consumeError(Name.takeError());
      return false;
    }
    if (Name->starts_with(".gnu.lto_"))
      return false;
  }
  return true;
}

// Writes Text to Path through a temporary file and a rename. Returns false on failure.
bool writeAtomically(const std::string &Path, llvm::StringRef Text) {
  std::string Temporary = Path + ".tmp";
  std::error_code EC;
  {
    llvm::raw_fd_ostream OS(Temporary, EC);
    if (EC)
      return false;
    OS << Text;
    OS.close();
    if (OS.has_error()) {
      OS.clear_error();
      llvm::sys::fs::remove(Temporary);
      return false;
    }
  }
  if (llvm::sys::fs::rename(Temporary, Path)) {
    llvm::sys::fs::remove(Temporary);
    return false;
  }
  return true;
}

// Adds the section to Object with objcopy, into a copy that then replaces it. False if that
// failed (Object is left as it was).
bool addSection(const std::string &Object, const UninstrumentedSource &S) {
  auto ObjCopy = llvm::sys::findProgramByName("objcopy");
  if (!ObjCopy)
    return false;
  llvm::SmallString<128> Note;
  if (llvm::sys::fs::createTemporaryFile("sleuth-uninstrumented", "txt", Note))
    return false;
  std::string Copy = Object + ".sleuth-tmp";
  bool Done = false;
  if (writeAtomically(std::string(Note), record(S))) {
    std::string Section = std::string(UninstrumentedSection) + "=" + std::string(Note);
    llvm::StringRef Args[] = {*ObjCopy, "--add-section", Section, Object, Copy};
    std::optional<llvm::StringRef> Quiet[] = {std::nullopt, llvm::StringRef(""),
                                              llvm::StringRef("")};
    Done = llvm::sys::ExecuteAndWait(*ObjCopy, Args, std::nullopt, Quiet) == 0 &&
           !llvm::sys::fs::rename(Copy, Object);
  }
  llvm::sys::fs::remove(Copy);
  llvm::sys::fs::remove(Note);
  return Done;
}

} // namespace

std::string markUninstrumented(const std::string &Object, const UninstrumentedSource &S) {
  // Not `-o /dev/null`, nor an object the compiler did not write.
  if (!llvm::sys::fs::is_regular_file(Object))
    return "";
  if (takesSection(Object) && addSection(Object, S)) {
    clearUninstrumentedMark(Object);
    return "";
  }
  if (!writeAtomically(Object + UninstrumentedSuffix, record(S)))
    return "cannot write " + Object + UninstrumentedSuffix;
  return "";
}

void clearUninstrumentedMark(const std::string &Object) {
  llvm::sys::fs::remove(Object + UninstrumentedSuffix);
}

std::vector<UninstrumentedSource>
uninstrumentedSources(const std::string &Output, const std::vector<std::string> &ObjectInputs) {
  std::vector<UninstrumentedSource> Found;
  if (auto File = llvm::object::ObjectFile::createObjectFile(Output)) {
    for (const llvm::object::SectionRef &Section : File->getBinary()->sections()) {
      llvm::Expected<llvm::StringRef> Name = Section.getName();
      llvm::Expected<llvm::StringRef> Contents =
          Name && *Name == UninstrumentedSection
              ? Section.getContents()
              : llvm::Expected<llvm::StringRef>(llvm::StringRef());
      if (!Name)
        llvm::consumeError(Name.takeError());
      if (Contents)
        parseRecords(*Contents, Found);
      else
        llvm::consumeError(Contents.takeError());
    }
  } else {
    llvm::consumeError(File.takeError());
  }
  for (const std::string &Object : ObjectInputs)
    if (auto Side = llvm::MemoryBuffer::getFile(Object + UninstrumentedSuffix))
      parseRecords((*Side)->getBuffer(), Found);
  return Found;
}

} // namespace sleuth::wrapper
